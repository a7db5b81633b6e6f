-- market-sale-task: records a sale's task on the market-sales queue, as market-purchase.lua does
-- for its own sales. The WATCH strategy (src/redis/market/watch.ts) sends it inside the MULTI
-- that makes the sale, so the sale and its task are applied together or not at all.
-- KEYS[1..5]  the market-sales queue's task counter, records, arguments, NORMAL ready list and
--             workers' wake-up list
-- ARGV[1]  the task's name (MARKET_SALE_TASK)   ARGV[2]  its most runs (TASK_MAX_ATTEMPTS)
-- ARGV[3]  the time of the sale (unix ms), which the task is made at
-- ARGV[4]  sale id   ARGV[5]  item   ARGV[6]  seller   ARGV[7]  buyer   ARGV[8]  price
-- Returns the task's number.
--- @include "market-sale-task"
return sale_task(1, ARGV[1], tonumber(ARGV[2]), {
  saleId = tonumber(ARGV[4]), item = ARGV[5], seller = ARGV[6], buyer = ARGV[7], price = tonumber(ARGV[8]),
}, tonumber(ARGV[3]))
