-- market-sale-task (include): a sale's task on the market-sales queue, with the sale as its
-- arguments, for market-purchase.lua and market-sale-task.lua (the WATCH strategy's writer), so a
-- sale's task is the same whichever strategy made the sale.
--- @include "task-add"

-- sale_task(first, name, maxAttempts, sale, now): KEYS[first..first+4] are the queue's task
-- counter, records, arguments, NORMAL ready list and workers' wake-up list; sale: saleId, item,
-- seller, buyer, price. The queue's limit (TASK_MAX_PER_QUEUE) is not checked: a sale that
-- happened must have its task, and the sales themselves bound the queue (one task per sale;
-- finished ones are forgotten after TASK_HISTORY). Returns the task's number.
local function sale_task(first, name, maxAttempts, sale, now)
  local number = task_add({
    counter = KEYS[first], records = KEYS[first + 1], args = KEYS[first + 2], ready = KEYS[first + 3],
  }, {
    name = name, priority = 'NORMAL', runAt = now, maxAttempts = maxAttempts,
    args = cjson.encode({
      saleId = sale.saleId, item = sale.item, seller = sale.seller, buyer = sale.buyer, price = sale.price,
    }),
  }, now)
  task_wake(KEYS[first + 4])
  return number
end
