// Tasks page (being built).
export function TasksPage() {
  return <h2>Tasks</h2>;
}
