-- row-cache-retry: after the database failed, brings claimed rows' next refresh forward to
-- ARGV[1] ms from now, never later than their usual delay (a row due sooner keeps its time).
-- KEYS[1]  schedule (zset id -> due ms)   KEYS[2]  delay (zset id -> ms)
-- ARGV[1]  backoff in ms   ARGV[2..]  row ids
-- Returns the number of rows moved forward.
local now = now_ms()
local backoff = tonumber(ARGV[1])
local moved = 0
for i = 2, #ARGV do
  local delay = redis.call('ZSCORE', KEYS[2], ARGV[i])
  if delay then
    moved = moved + redis.call('ZADD', KEYS[1], 'XX', 'LT', 'CH', now + math.min(backoff, tonumber(delay)), ARGV[i])
  end
end
return moved
