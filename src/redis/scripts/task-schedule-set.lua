-- task-schedule-set: creates a repeating task's schedule, or replaces it. Replacing keeps what
-- its runs did (last run, last task, misses). The next run: with the same timing as before
-- (every, cron, time zone), the one the schedule already has, so a replacement made while a tick
-- is due neither skips nor repeats it; otherwise the one given, which the caller computed from the
-- new definition, unless it is not after the last tick enqueued (a scheduler took a tick since
-- the caller read the clock): then nothing is written and the caller computes again from that tick.
-- KEYS[1]  definitions (hash name -> JSON)   KEYS[2]  next runs (zset name -> unix ms)
-- KEYS[3]  runs (hash name -> JSON)
-- ARGV[1]  schedule name   ARGV[2]  definition JSON   ARGV[3]  first run (unix ms)
-- ARGV[4]  most schedules the queue may hold
-- Returns {1 when created, 0 when replaced, what its runs did (JSON, '' for none), the next run},
-- or {-1, the last tick enqueued} when ARGV[3] is not after it.
local name = ARGV[1]
local old = redis.call('HGET', KEYS[1], name)
if not old and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then
  return redis.error_reply('E_TOO_MANY_SCHEDULES the queue holds its limit of ' .. ARGV[4] .. ' schedules')
end
local runs = redis.call('HGET', KEYS[3], name) or ''
local next = tonumber(ARGV[3])
local current = redis.call('ZSCORE', KEYS[2], name)
local fresh = cjson.decode(ARGV[2])
local before = old and cjson.decode(old)
if before and current and before.everySeconds == fresh.everySeconds and before.cron == fresh.cron
    and before.timezone == fresh.timezone then
  next = tonumber(current)
elseif runs ~= '' then
  local lastTick = cjson.decode(runs).lastTick
  if lastTick and next <= lastTick then return { -1, lastTick } end
end
redis.call('HSET', KEYS[1], name, ARGV[2])
redis.call('ZADD', KEYS[2], next, name)
return { old and 0 or 1, runs, next }
