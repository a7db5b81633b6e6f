-- task-next: a worker's one round trip per task. It records how the run that just ended went
-- (if any), then hands out up to N waiting tasks (if wanted): so a busy worker settles one task
-- and takes the next in the same step.
-- Settling: completed keeps the result and clears an earlier run's error (a COMPLETED task shows
-- none); failed runs again after a backoff (doubling per run, capped) until the task has had its
-- runs, then it is FAILED with the last error. Only the worker holding the current run may settle
-- it: one whose lease ran out changes nothing. Each finish forgets up to two of the oldest finished
-- tasks beyond the history bound, so the bound holds at any rate.
-- Taking: highest priority first and, within a priority, tasks that came due after a delay before
-- the others (the book's "delayed first"). Each is ACTIVE under a lease the worker must renew
-- (task-extend); if the worker dies, the poller finds the lease run out and the task runs again.
-- A run taken starts with no progress (an earlier run's report is dropped).
-- KEYS[1]  records (hash number -> JSON)   KEYS[7]  finished (zset number -> when)
-- KEYS[2]  arguments (hash)                KEYS[8]  counts (hash)
-- KEYS[3]  results (hash)                  KEYS[9]  idempotency keys (hash)
-- KEYS[4]  errors (hash)                   KEYS[10] the pollers' wake-up list
-- KEYS[5]  active (zset number -> lease end, unix ms)   KEYS[11] the workers' wake-up list
-- KEYS[6]  delayed (zset number -> due, unix ms)
-- KEYS[12..17] waiting lists: due HIGH, ready HIGH, due NORMAL, ready NORMAL, due LOW, ready LOW
-- KEYS[18] progress (hash)   KEYS[19] the paused flag: while it exists nothing is taken
-- ARGV[1]  the queue's name (for notifications)
-- ARGV[2]  number of the task whose run ended, '' for none   ARGV[3]  that run (attempts when taken)
-- ARGV[4]  COMPLETED, FAILED (may run again) or FAILED_FOR_GOOD
-- ARGV[5]  the result as JSON ('' for none) or the error
-- ARGV[6]  first backoff in ms   ARGV[7]  longest backoff in ms   ARGV[8]  finished tasks to remember
-- ARGV[9]  most tasks to take    ARGV[10] lease in ms
-- Returns {the settled task's new state ('' when not settled: none given, or the run was no
-- longer held), then number, record JSON, arguments JSON or '' for each task taken}.
local now = now_ms()
local queue = ARGV[1]

local function announce(number, state)
  -- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
  redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. number,
    cjson.encode({ id = queue .. ':' .. number, state = state, progress = cjson.null }))
end

-- The wait before a failed task's next run: its own first backoff or the queue's, doubled per run
-- of the current try (retryTask starts a new one) unless it is FIXED, never above the queue's
-- longest. Mirrored in task-promote.lua.
local function backoff(record, first, longest)
  local wait = record.backoffMs or first
  local runs = record.attempts - (record.maxAttempts - (record.runsPerTry or record.maxAttempts))
  if record.backoff ~= 'FIXED' then wait = wait * 2 ^ (runs - 1) end
  return math.min(wait, longest)
end

local function forgetOldest(count)
  local oldest = redis.call('ZPOPMIN', KEYS[7], count)
  for i = 1, #oldest, 2 do
    local raw = redis.call('HGET', KEYS[1], oldest[i])
    if raw then
      local key = cjson.decode(raw).idempotencyKey
      if key then redis.call('HDEL', KEYS[9], key) end
    end
    for hash = 1, 4 do redis.call('HDEL', KEYS[hash], oldest[i]) end
    redis.call('HDEL', KEYS[18], oldest[i])
  end
end

local function settle(number, run, outcome, detail)
  local raw = redis.call('HGET', KEYS[1], number)
  if not raw then return '' end
  local record = cjson.decode(raw)
  if record.state ~= 'ACTIVE' or record.attempts ~= run then return '' end
  redis.call('ZREM', KEYS[5], number)
  if outcome == 'COMPLETED' then
    record.state = 'COMPLETED'
    if detail ~= '' then redis.call('HSET', KEYS[3], number, detail) end
    redis.call('HDEL', KEYS[4], number)
  else
    redis.call('HSET', KEYS[4], number, detail)
    if outcome == 'FAILED' and record.attempts < record.maxAttempts then
      record.state = 'DELAYED'
      record.runAt = now + backoff(record, tonumber(ARGV[6]), tonumber(ARGV[7]))
      local first = redis.call('ZRANGE', KEYS[6], 0, 0, 'WITHSCORES')
      redis.call('ZADD', KEYS[6], record.runAt, number)
      if (first[2] == nil or tonumber(first[2]) > record.runAt) and redis.call('LLEN', KEYS[10]) == 0 then
        redis.call('RPUSH', KEYS[10], '1')
      end
    else
      record.state = 'FAILED'
    end
  end
  if record.state ~= 'DELAYED' then record.finishedAt = now end
  redis.call('HSET', KEYS[1], number, cjson.encode(record))
  if record.state ~= 'DELAYED' then
    redis.call('ZADD', KEYS[7], now, number)
    redis.call('HINCRBY', KEYS[8], record.state, 1)
    local excess = math.min(redis.call('ZCARD', KEYS[7]) - tonumber(ARGV[8]), 2)
    if excess > 0 then forgetOldest(excess) end
  end
  announce(number, record.state)
  return record.state
end

local reply = { '' }
if ARGV[2] ~= '' then reply[1] = settle(ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]) end

local wanted, lease = tonumber(ARGV[9]), tonumber(ARGV[10])
-- A paused queue still settles runs; it only stops handing out tasks (pauseQueue).
if redis.call('EXISTS', KEYS[19]) == 1 then wanted = 0 end
local taken, list = 0, 12
while taken < wanted and list <= 17 do
  local number = redis.call('LPOP', KEYS[list])
  if not number then
    list = list + 1
  else
    local raw = redis.call('HGET', KEYS[1], number)
    if raw then
      local record = cjson.decode(raw)
      record.state = 'ACTIVE'
      record.attempts = record.attempts + 1
      record.startedAt = now
      local encoded = cjson.encode(record)
      redis.call('HSET', KEYS[1], number, encoded)
      -- Progress belongs to a run: a new run must not show what an earlier one reported.
      redis.call('HDEL', KEYS[18], number)
      redis.call('ZADD', KEYS[5], now + lease, number)
      announce(number, 'ACTIVE')
      reply[#reply + 1] = number
      reply[#reply + 1] = encoded
      reply[#reply + 1] = redis.call('HGET', KEYS[2], number) or ''
      taken = taken + 1
    end
  end
end
-- Work is left: wake the next idle worker, which wakes the next in turn.
if wanted > 0 then
  for rest = list, 17 do
    if redis.call('LLEN', KEYS[rest]) > 0 then
      if redis.call('LLEN', KEYS[11]) == 0 then redis.call('RPUSH', KEYS[11], '1') end
      break
    end
  end
end
return reply
