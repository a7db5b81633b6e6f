-- task-enqueue: records one or more tasks and makes each wait, now or after a delay (the book's
-- execute_later), in one atomic step: all of them are recorded or, on an error, none. A task whose
-- idempotency key was used before is not recorded again: the first task is returned instead.
-- KEYS[1]  the queue's task counter        KEYS[5]  the pollers' wake-up list
-- KEYS[2]  records (hash number -> JSON)   KEYS[6]  the workers' wake-up list
-- KEYS[3]  arguments (hash number -> JSON) KEYS[7]  idempotency keys (hash key -> "number digest")
-- KEYS[4]  delayed (zset number -> due, unix ms)
-- KEYS[8..10]  the ready lists of HIGH, NORMAL and LOW
-- ARGV[1]  most tasks the queue may hold   ARGV[2]  most runs, unless a task says
-- then 10 per task: name, arguments as JSON ('' for none), priority, delay in ms, idempotency key
-- ('' for none), digest of the request, most runs ('' for the queue's), first backoff in ms ('' for
-- the queue's), FIXED or '' (doubling), run timeout in ms ('' for the workers').
-- Returns, per task, {1, number, the time it was recorded (unix ms)} when created, {0, number,
-- record JSON} for a known idempotency key; the time is the Redis server's.
-- Errors, with nothing written: E_IDEMPOTENCY_KEY_REUSED, E_QUEUE_FULL.
-- Two other writers record tasks as this script does (the same record fields, ready list and
-- wake-up token); keep them alike: market-purchase.lua with src/redis/market/watch.ts (a sale's
-- task) and task-schedule-tick.lua (a repeating task's run).
local now = now_ms()
local FIELDS = 10
local ready = { HIGH = 8, NORMAL = 9, LOW = 10 }
local count = (#ARGV - 2) / FIELDS

-- First, without writing: which tasks are repeats, and whether the new ones fit.
local known, fresh, inBatch = {}, 0, {}
for t = 1, count do
  local at = 2 + (t - 1) * FIELDS
  local key, digest = ARGV[at + 5], ARGV[at + 6]
  if key ~= '' then
    local seen = inBatch[key]
    if seen then
      if seen.digest ~= digest then
        return redis.error_reply('E_IDEMPOTENCY_KEY_REUSED idempotencyKey was used for a different task')
      end
      known[t] = seen
    else
      local stored = redis.call('HGET', KEYS[7], key)
      if stored then
        local number, first = string.match(stored, '^(%d+) (.*)$')
        local record = redis.call('HGET', KEYS[2], number)
        if record then
          if first ~= digest then
            return redis.error_reply('E_IDEMPOTENCY_KEY_REUSED idempotencyKey was used for a different task')
          end
          known[t] = { number = tonumber(number), record = record, digest = digest }
        end
      end
      -- A key repeated within the batch refers to the first task that carries it.
      inBatch[key] = known[t] or { digest = digest, first = t }
    end
  end
  if not known[t] then fresh = fresh + 1 end
end
if fresh > 0 and redis.call('HLEN', KEYS[2]) + fresh > tonumber(ARGV[1]) then
  return redis.error_reply('E_QUEUE_FULL the queue holds its limit of ' .. ARGV[1] .. ' tasks')
end

local reply, numbers = {}, {}
local soonest = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')[2]
soonest = soonest and tonumber(soonest)
local wakePoller, wakeWorker = false, false
for t = 1, count do
  local at = 2 + (t - 1) * FIELDS
  local earlier = known[t]
  if earlier and earlier.first then
    reply[t] = { 0, numbers[earlier.first], redis.call('HGET', KEYS[2], numbers[earlier.first]) }
  elseif earlier then
    reply[t] = { 0, earlier.number, earlier.record }
  else
    local number = redis.call('INCR', KEYS[1])
    numbers[t] = number
    local delay = tonumber(ARGV[at + 4])
    local runAt = now + delay
    local record = {
      name = ARGV[at + 1], priority = ARGV[at + 3], state = delay > 0 and 'DELAYED' or 'WAITING',
      runAt = runAt, attempts = 0, maxAttempts = tonumber(ARGV[at + 7] ~= '' and ARGV[at + 7] or ARGV[2]),
      createdAt = now,
    }
    -- Only what the task sets for itself is stored: the queue's settings apply to the rest.
    if ARGV[at + 8] ~= '' then record.backoffMs = tonumber(ARGV[at + 8]) end
    if ARGV[at + 9] ~= '' then record.backoff = ARGV[at + 9] end
    if ARGV[at + 10] ~= '' then record.timeoutMs = tonumber(ARGV[at + 10]) end
    local key = ARGV[at + 5]
    if key ~= '' then
      record.idempotencyKey = key
      redis.call('HSET', KEYS[7], key, number .. ' ' .. ARGV[at + 6])
    end
    redis.call('HSET', KEYS[2], number, cjson.encode(record))
    if ARGV[at + 2] ~= '' then redis.call('HSET', KEYS[3], number, ARGV[at + 2]) end
    if delay > 0 then
      redis.call('ZADD', KEYS[4], runAt, number)
      -- A poller sleeps until the earliest due time it knew of; wake it if this one is sooner.
      if soonest == nil or soonest > runAt then
        soonest = runAt
        wakePoller = true
      end
    else
      redis.call('RPUSH', KEYS[ready[record.priority]], number)
      wakeWorker = true
    end
    reply[t] = { 1, number, now }
  end
end
if wakePoller and redis.call('LLEN', KEYS[5]) == 0 then redis.call('RPUSH', KEYS[5], '1') end
if wakeWorker and redis.call('LLEN', KEYS[6]) == 0 then redis.call('RPUSH', KEYS[6], '1') end
return reply
