// Locations page (being built).
export function LocationsPage() {
  return <h2>Locations</h2>;
}
