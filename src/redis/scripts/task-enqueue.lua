-- task-enqueue: records a task and makes it wait, now or after a delay (the book's
-- execute_later), unless its idempotency key was used before: then the first task is returned.
-- Only the keys this add touches are passed: where it waits and whom it wakes depend on the delay.
-- KEYS[1]  the queue's task counter        KEYS[4]  delay 0: the ready list of its priority;
-- KEYS[2]  records (hash number -> JSON)            else: delayed (zset number -> due, unix ms)
-- KEYS[3]  arguments (hash number -> JSON) KEYS[5]  delay 0: the workers' wake-up list;
--                                                   else: the pollers' wake-up list
-- KEYS[6]  idempotency keys (hash key -> "number digest"), only with an idempotency key
-- ARGV[1]  task name     ARGV[2]  arguments as JSON, '' for none    ARGV[3]  priority
-- ARGV[4]  delay in ms   ARGV[5]  idempotency key, '' for none      ARGV[6]  digest of the request
-- ARGV[7]  most runs     ARGV[8]  most tasks the queue may hold
-- Returns {1, number, the time it was recorded (unix ms)} when created, {0, number, record JSON}
-- for a known idempotency key; the time is the Redis server's.
local now = now_ms()
local key, digest = ARGV[5], ARGV[6]
if key ~= '' then
  local seen = redis.call('HGET', KEYS[6], key)
  if seen then
    local number, first = string.match(seen, '^(%d+) (.*)$')
    local record = redis.call('HGET', KEYS[2], number)
    if record then
      if first ~= digest then
        return redis.error_reply('E_IDEMPOTENCY_KEY_REUSED idempotencyKey was used for a different task')
      end
      return { 0, tonumber(number), record }
    end
  end
end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[8]) then
  return redis.error_reply('E_QUEUE_FULL the queue holds its limit of ' .. ARGV[8] .. ' tasks')
end
local number = redis.call('INCR', KEYS[1])
local delay = tonumber(ARGV[4])
local runAt = now + delay
local record = {
  name = ARGV[1], priority = ARGV[3], state = delay > 0 and 'DELAYED' or 'WAITING',
  runAt = runAt, attempts = 0, maxAttempts = tonumber(ARGV[7]), createdAt = now,
}
if key ~= '' then
  record.idempotencyKey = key
  redis.call('HSET', KEYS[6], key, number .. ' ' .. digest)
end
redis.call('HSET', KEYS[2], number, cjson.encode(record))
if ARGV[2] ~= '' then redis.call('HSET', KEYS[3], number, ARGV[2]) end
if delay > 0 then
  local first = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
  redis.call('ZADD', KEYS[4], runAt, number)
  -- A poller sleeps until the earliest due time it knew of; wake it if this one is sooner.
  if (first[2] == nil or tonumber(first[2]) > runAt) and redis.call('LLEN', KEYS[5]) == 0 then
    redis.call('RPUSH', KEYS[5], '1')
  end
else
  redis.call('RPUSH', KEYS[4], number)
  if redis.call('LLEN', KEYS[5]) == 0 then redis.call('RPUSH', KEYS[5], '1') end
end
return { 1, number, now }
