-- market-reprice: sets a new price on a seller's own listing, as one step: a purchase at the old
-- price either came first or is refused with PRICE_CHANGED.
-- KEYS[1]  the listings (zset scored by price)
-- ARGV[1]  the listing member, `<item> <seller>`
-- ARGV[2]  the new price
-- ARGV[3]  the item
-- ARGV[4]  the seller
-- ARGV[5]  the marketChanged channel
-- Returns the price it was listed at before, or -1 when the seller has no such listing.
local price = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not price then
  return -1
end
redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
redis.call(NOTIFY, ARGV[5], cjson.encode({
  kind = 'REPRICED', itemId = ARGV[3], sellerId = ARGV[4], price = tonumber(ARGV[2]),
}))
return tonumber(price)
