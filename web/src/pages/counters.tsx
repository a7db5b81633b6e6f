// Counters page (being built).
export function CountersPage() {
  return <h2>Counters</h2>;
}
