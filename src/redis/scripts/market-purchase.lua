-- market-purchase: buys a listed item (the book's purchase_item) as one step, so a purchase
-- never waits for a lock or retries after a conflicting write. The same step records the sale
-- for the seller, announces it, and, when MARKET_SALE_TASK is set, enqueues the sale's task: a
-- sale and its task are never one without the other.
-- KEYS[1]  the listings (zset scored by price)
-- KEYS[2]  the buyer (hash with `funds`)
-- KEYS[3]  the seller (hash with `funds`)
-- KEYS[4]  the buyer's inventory (zset)
-- KEYS[5]  the counter of sale ids
-- KEYS[6]  the seller's sales (zset of JSON scored by sale id)
-- KEYS[7..11], only with a sale task: the market-sales queue's task counter, records, arguments,
--          NORMAL ready list and workers' wake-up list
-- ARGV[1]  the listing member, `<item> <seller>`
-- ARGV[2]  the item
-- ARGV[3]  the price the buyer expects to pay
-- ARGV[4]  the largest balance allowed (MARKET_MAX_FUNDS); a sale beyond it fails with E_SELLER_FUNDS_CAP
-- ARGV[5]  the seller          ARGV[6]  the buyer
-- ARGV[7]  most sales kept per seller (MARKET_SALES_KEEP)
-- ARGV[8]  the marketChanged channel
-- ARGV[9]  the sale task's name, '' for none    ARGV[10]  its most runs (TASK_MAX_ATTEMPTS)
-- Returns {outcome, buyer's funds afterwards, listed price or -1, sale id or -1}; outcome 0
-- purchased, 1 the listing is gone, 2 its price is not the expected one, 3 the buyer lacks the funds.
-- The sale's task is recorded as the WATCH strategy records it, and as task-enqueue.lua records
-- any task (includes/market-sale-task.lua, includes/task-add.lua).
--- @include "market-sale-task"
local listed = redis.call('ZSCORE', KEYS[1], ARGV[1])
local funds = tonumber(redis.call('HGET', KEYS[2], 'funds') or '0')
if not listed then
  return {1, funds, -1, -1}
end
listed = tonumber(listed)
if listed ~= tonumber(ARGV[3]) then
  return {2, funds, listed, -1}
end
if funds < listed then
  return {3, funds, listed, -1}
end
if tonumber(redis.call('HGET', KEYS[3], 'funds') or '0') + listed > tonumber(ARGV[4]) then
  return redis.error_reply('E_SELLER_FUNDS_CAP ' .. ARGV[4])
end
redis.call('HINCRBY', KEYS[3], 'funds', listed)
redis.call('HINCRBY', KEYS[2], 'funds', -listed)
redis.call('ZADD', KEYS[4], 0, ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[1])

-- The sale, as the WATCH strategy writes it too (market/watch.ts).
local now = now_ms()
local sale = redis.call('INCR', KEYS[5])
redis.call('ZADD', KEYS[6], sale, cjson.encode({
  saleId = sale, itemId = ARGV[2], buyerId = ARGV[6], price = listed, soldAt = now,
}))
redis.call('ZREMRANGEBYRANK', KEYS[6], 0, -tonumber(ARGV[7]) - 1)
redis.call(NOTIFY, ARGV[8], cjson.encode({ kind = 'SOLD', itemId = ARGV[2], sellerId = ARGV[5], price = listed }))
if ARGV[9] ~= '' then
  sale_task(7, ARGV[9], tonumber(ARGV[10]), {
    saleId = sale, item = ARGV[2], seller = ARGV[5], buyer = ARGV[6], price = listed,
  }, now)
end
return {0, funds - listed, listed, sale}
