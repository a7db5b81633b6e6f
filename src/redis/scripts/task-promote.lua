-- task-promote: the poller's step (the book's poll_queue, without its lock: one script is
-- atomic, so several pollers never move a task twice). Moves tasks whose delay ended to the
-- front lists of their priority in due order; gives tasks whose worker stopped renewing its
-- lease another run after a backoff, or FAILS them when they have had their runs; and forgets
-- the oldest finished tasks beyond the history limit.
-- KEYS[1]  records (hash number -> JSON)   KEYS[4..9]  waiting lists as in task-next
-- KEYS[2]  delayed (zset)                  KEYS[10] the workers' wake-up list
-- KEYS[3]  active (zset)                   KEYS[11] errors   KEYS[12] finished (zset)
-- KEYS[13] counts (hash)   KEYS[14] idempotency keys   KEYS[15] arguments   KEYS[16] results
-- KEYS[17] progress (hash)
-- ARGV[1]  the queue's name   ARGV[2]  most tasks moved per kind   ARGV[3]  first backoff in ms
-- ARGV[4]  longest backoff in ms   ARGV[5]  finished tasks to remember
-- Returns {tasks moved, leases expired, ms until the next due time or lease end (-1: none),
-- finished tasks forgotten}.
local now = now_ms()
local queue, batch = ARGV[1], tonumber(ARGV[2])
local dueList = { HIGH = 4, NORMAL = 6, LOW = 8 }

local function announce(number, state)
  -- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
  redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. number,
    cjson.encode({ id = queue .. ':' .. number, state = state, progress = cjson.null }))
end

local moved = 0
for _, number in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, batch)) do
  redis.call('ZREM', KEYS[2], number)
  local raw = redis.call('HGET', KEYS[1], number)
  if raw then
    local record = cjson.decode(raw)
    record.state = 'WAITING'
    redis.call('HSET', KEYS[1], number, cjson.encode(record))
    redis.call('RPUSH', KEYS[dueList[record.priority]], number)
    announce(number, 'WAITING')
    moved = moved + 1
  end
end
if moved > 0 and redis.call('LLEN', KEYS[10]) == 0 then redis.call('RPUSH', KEYS[10], '1') end

local expired = 0
for _, number in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, batch)) do
  redis.call('ZREM', KEYS[3], number)
  local raw = redis.call('HGET', KEYS[1], number)
  if raw then
    local record = cjson.decode(raw)
    redis.call('HSET', KEYS[11], number, 'the worker stopped answering: its lease ran out')
    if record.attempts < record.maxAttempts then
      record.state = 'DELAYED'
      -- As task-next.lua's backoff(): the task's own first backoff or the queue's, doubled per run
      -- of the current try unless FIXED.
      local wait = record.backoffMs or tonumber(ARGV[3])
      local runs = record.attempts - (record.maxAttempts - (record.runsPerTry or record.maxAttempts))
      if record.backoff ~= 'FIXED' then wait = wait * 2 ^ (runs - 1) end
      record.runAt = now + math.min(wait, tonumber(ARGV[4]))
      redis.call('ZADD', KEYS[2], record.runAt, number)
    else
      record.state = 'FAILED'
      record.finishedAt = now
      redis.call('ZADD', KEYS[12], now, number)
      redis.call('HINCRBY', KEYS[13], 'FAILED', 1)
    end
    redis.call('HSET', KEYS[1], number, cjson.encode(record))
    announce(number, record.state)
    expired = expired + 1
  end
end

local excess = math.min(redis.call('ZCARD', KEYS[12]) - tonumber(ARGV[5]), batch)
local forgotten = math.max(excess, 0)
if excess > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[12], excess)
  for i = 1, #oldest, 2 do
    local number = oldest[i]
    local raw = redis.call('HGET', KEYS[1], number)
    if raw then
      local key = cjson.decode(raw).idempotencyKey
      if key then redis.call('HDEL', KEYS[14], key) end
    end
    redis.call('HDEL', KEYS[1], number)
    redis.call('HDEL', KEYS[11], number)
    redis.call('HDEL', KEYS[15], number)
    redis.call('HDEL', KEYS[16], number)
    redis.call('HDEL', KEYS[17], number)
  end
end

local next = -1
for _, key in ipairs({ KEYS[2], KEYS[3] }) do
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if first[2] then
    local wait = math.max(tonumber(first[2]) - now, 0)
    if next < 0 or wait < next then next = wait end
  end
end
return { moved, expired, next, forgotten }
