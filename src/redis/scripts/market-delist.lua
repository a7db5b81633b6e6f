-- market-delist: takes a seller's own listing off the market and puts the item back in their
-- inventory, as one step: a purchase either came first (the item is gone) or finds it gone.
-- KEYS[1]  the listings (zset scored by price)
-- KEYS[2]  the seller's inventory (zset)
-- ARGV[1]  the listing member, `<item> <seller>`
-- ARGV[2]  the item
-- ARGV[3]  the seller
-- ARGV[4]  the marketChanged channel
-- Returns the price it was listed at, or -1 when the seller has no such listing.
local price = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not price then
  return -1
end
price = tonumber(price)
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], 0, ARGV[2])
redis.call(NOTIFY, ARGV[4], cjson.encode({ kind = 'DELISTED', itemId = ARGV[2], sellerId = ARGV[3], price = price }))
return price
