-- task-schedule-remove: forgets a repeating task's schedule; tasks it enqueued stay.
-- KEYS[1]  definitions (hash)   KEYS[2]  next runs (zset)   KEYS[3]  runs (hash)
-- ARGV[1]  schedule name
-- Returns 1 when there was such a schedule, else 0.
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return removed
