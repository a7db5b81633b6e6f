-- market-purchase: buys a listed item (the book's purchase_item) as one step, so a purchase
-- never waits for a lock or retries after a conflicting write.
-- KEYS[1]  the listings (zset scored by price)
-- KEYS[2]  the buyer (hash with `funds`)
-- KEYS[3]  the seller (hash with `funds`)
-- KEYS[4]  the buyer's inventory (zset)
-- ARGV[1]  the listing member, `<item> <seller>`
-- ARGV[2]  the item
-- ARGV[3]  the price the buyer expects to pay
-- ARGV[4]  the largest balance allowed (MARKET_MAX_FUNDS); a sale beyond it fails with E_SELLER_FUNDS_CAP
-- Returns {outcome, buyer's funds afterwards, listed price or -1}; outcome 0 purchased, 1 the
-- listing is gone, 2 its price is not the expected one, 3 the buyer lacks the funds.
local listed = redis.call('ZSCORE', KEYS[1], ARGV[1])
local funds = tonumber(redis.call('HGET', KEYS[2], 'funds') or '0')
if not listed then
  return {1, funds, -1}
end
listed = tonumber(listed)
if listed ~= tonumber(ARGV[3]) then
  return {2, funds, listed}
end
if funds < listed then
  return {3, funds, listed}
end
if tonumber(redis.call('HGET', KEYS[3], 'funds') or '0') + listed > tonumber(ARGV[4]) then
  return redis.error_reply('E_SELLER_FUNDS_CAP ' .. ARGV[4])
end
redis.call('HINCRBY', KEYS[3], 'funds', listed)
redis.call('HINCRBY', KEYS[2], 'funds', -listed)
redis.call('ZADD', KEYS[4], 0, ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])
return {0, funds - listed, listed}
