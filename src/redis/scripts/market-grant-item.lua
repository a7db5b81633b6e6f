-- market-grant-item: creates an item in a user's inventory (service callers, for set-up). Item
-- ids are unique across the market, so an item is always in exactly one inventory or listing.
-- KEYS[1]  every item id ever granted (set)
-- KEYS[2]  the user's inventory (zset)
-- ARGV[1]  the item
-- ARGV[2]  most items one inventory may hold
-- Returns 1; fails with E_ITEM_EXISTS or E_INVENTORY_FULL, changing nothing.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  return redis.error_reply('E_ITEM_EXISTS an item with this id exists already')
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  return redis.error_reply('E_INVENTORY_FULL ' .. ARGV[2])
end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], 0, ARGV[1])
return 1
