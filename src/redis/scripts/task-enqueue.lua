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
-- The record is written by includes/task-add.lua, as every other script that makes tasks writes it.
--- @include "task-add"
local now = now_ms()
local FIELDS = 10
local ready = { HIGH = KEYS[8], NORMAL = KEYS[9], LOW = KEYS[10] }
local queue = { counter = KEYS[1], records = KEYS[2], args = KEYS[3], delayed = KEYS[4] }
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
    local delay = tonumber(ARGV[at + 4])
    local runAt = now + delay
    local key = ARGV[at + 5] ~= '' and ARGV[at + 5] or nil
    queue.ready = ready[ARGV[at + 3]]
    local number = task_add(queue, {
      name = ARGV[at + 1], priority = ARGV[at + 3], runAt = runAt,
      maxAttempts = tonumber(ARGV[at + 7] ~= '' and ARGV[at + 7] or ARGV[2]),
      args = ARGV[at + 2] ~= '' and ARGV[at + 2] or nil,
      backoffMs = ARGV[at + 8] ~= '' and tonumber(ARGV[at + 8]) or nil,
      backoff = ARGV[at + 9] ~= '' and ARGV[at + 9] or nil,
      timeoutMs = ARGV[at + 10] ~= '' and tonumber(ARGV[at + 10]) or nil,
      idempotencyKey = key,
    }, now)
    numbers[t] = number
    if key then redis.call('HSET', KEYS[7], key, number .. ' ' .. ARGV[at + 6]) end
    if delay > 0 then
      -- A poller sleeps until the earliest due time it knew of; wake it if this one is sooner.
      if soonest == nil or soonest > runAt then
        soonest = runAt
        wakePoller = true
      end
    else
      wakeWorker = true
    end
    reply[t] = { 1, number, now }
  end
end
if wakePoller then task_wake(KEYS[5]) end
if wakeWorker then task_wake(KEYS[6]) end
return reply
