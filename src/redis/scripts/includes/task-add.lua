-- task-add (include): the one place a new task is recorded, for every script that makes tasks:
-- task-enqueue, task-schedule-tick, and a sale's task (includes/market-sale-task.lua, for
-- market-purchase and the WATCH strategy). The record's layout, its ready list and the wake-up
-- token are written alike everywhere.
--
-- task_add(keys, task, now) takes the next number from keys.counter, stores the record at it in
-- keys.records and the arguments (JSON, nil for none) in keys.args, then makes the task wait: in
-- keys.ready (the list of its priority) when runAt has come, in the zset keys.delayed otherwise.
-- task: name, priority, runAt (unix ms), maxAttempts, args, and what the task sets for itself,
-- nil where the queue's setting applies: backoffMs, backoff, timeoutMs, idempotencyKey.
-- now: the time the task is recorded (unix ms). Returns the task's number.
local function task_add(keys, task, now)
  local number = redis.call('INCR', keys.counter)
  local record = {
    name = task.name, priority = task.priority, state = task.runAt > now and 'DELAYED' or 'WAITING',
    runAt = task.runAt, attempts = 0, maxAttempts = task.maxAttempts, createdAt = now,
  }
  -- Only what the task sets for itself is stored: the queue's settings apply to the rest.
  if task.backoffMs then record.backoffMs = task.backoffMs end
  if task.backoff then record.backoff = task.backoff end
  if task.timeoutMs then record.timeoutMs = task.timeoutMs end
  if task.idempotencyKey then record.idempotencyKey = task.idempotencyKey end
  redis.call('HSET', keys.records, number, cjson.encode(record))
  if task.args then redis.call('HSET', keys.args, number, task.args) end
  if record.state == 'DELAYED' then
    redis.call('ZADD', keys.delayed, task.runAt, number)
  else
    redis.call('RPUSH', keys.ready, number)
  end
  return number
end

-- Workers (and pollers) block on a wake-up list: one token wakes them, more would only queue up.
local function task_wake(list)
  if redis.call('LLEN', list) == 0 then redis.call('RPUSH', list, '1') end
end
