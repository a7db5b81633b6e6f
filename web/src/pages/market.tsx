// Market page (being built).
export function MarketPage() {
  return <h2>Market</h2>;
}
