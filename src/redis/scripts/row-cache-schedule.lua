-- row-cache-schedule: the book's schedule_row_cache. A positive delay (re)schedules the row and
-- makes it due at once; a delay of 0 or less stops caching it and deletes its copy, in the same
-- step, so a refresh in flight finds it unscheduled and stores nothing.
-- KEYS[1]  schedule (zset id -> due ms)   KEYS[2]  delay (zset id -> ms)   KEYS[3]  ids (zset)
-- KEYS[4]  refreshed (hash)               KEYS[5]  tokens (hash)           KEYS[6]  claims (counter)
-- KEYS[7]  the row's copy (string)
-- ARGV[1]  row id   ARGV[2]  delay in ms (<= 0: unschedule)   ARGV[3]  most rows scheduled
-- ARGV[4]  the row's notification channel
-- Returns 1 when the row was newly scheduled, or (unscheduling) when it was scheduled or cached;
-- 0 otherwise. E_ROW_CACHE_FULL when a new row would exceed ARGV[3].
local now = now_ms()
local id, delay = ARGV[1], tonumber(ARGV[2])

if delay > 0 then
  local known = redis.call('ZSCORE', KEYS[2], id)
  if not known then
    if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
      return redis.error_reply('E_ROW_CACHE_FULL ' .. ARGV[3] .. ' rows are scheduled already')
    end
    -- Claims handed out before now belong to an earlier schedule of this row: never store them.
    redis.call('HSET', KEYS[5], id, redis.call('INCR', KEYS[6]))
    redis.call('ZADD', KEYS[3], 0, id)
  end
  redis.call('ZADD', KEYS[2], delay, id)
  redis.call('ZADD', KEYS[1], now, id)
  return known and 0 or 1
end

local scheduled = redis.call('ZREM', KEYS[2], id)
redis.call('ZREM', KEYS[1], id)
redis.call('ZREM', KEYS[3], id)
redis.call('HDEL', KEYS[4], id)
redis.call('HDEL', KEYS[5], id)
local cached = redis.call('DEL', KEYS[7])
if cached == 1 then
  redis.call(NOTIFY, ARGV[4], cjson.encode({ rowId = id, at = now, cached = false }))
end
return (scheduled + cached > 0) and 1 or 0
