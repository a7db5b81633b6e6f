// Input bounds of the market, at the server's defaults; a server configured lower refuses with
// BAD_USER_INPUT, which the page shows with its code.
/** MARKET_PAGE_MAX is at least 20 on any server. */
export const PAGE = 20;
/** MARKET_MAX_PRICE's default. */
export const PRICE_MAX = 1_000_000_000;
