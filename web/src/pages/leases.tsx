// Leases page (being built).
export function LeasesPage() {
  return <h2>Leases</h2>;
}
