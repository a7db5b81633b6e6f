-- market-list: puts an item from a seller's inventory up for sale (the book's list_item), as one
-- step: no WATCH on the inventory and so no retries.
-- KEYS[1]  the seller's inventory (zset)
-- KEYS[2]  the listings (zset scored by price)
-- ARGV[1]  the item
-- ARGV[2]  the listing member, `<item> <seller>`
-- ARGV[3]  the price
-- ARGV[4]  the seller
-- ARGV[5]  the marketChanged channel
-- Returns 1 when listed, 0 when the seller does not hold the item.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call(NOTIFY, ARGV[5], cjson.encode({
  kind = 'LISTED', itemId = ARGV[1], sellerId = ARGV[4], price = tonumber(ARGV[3]),
}))
return 1
