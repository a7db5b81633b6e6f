-- task-schedule-set: creates a repeating task's schedule, or replaces it. Replacing keeps what
-- its runs did (last run, last task, misses) and moves its next run to the one given, which the
-- caller computed from the new definition.
-- KEYS[1]  definitions (hash name -> JSON)   KEYS[2]  next runs (zset name -> unix ms)
-- KEYS[3]  runs (hash name -> JSON)
-- ARGV[1]  schedule name   ARGV[2]  definition JSON   ARGV[3]  first run (unix ms)
-- ARGV[4]  most schedules the queue may hold
-- Returns {1 when created, 0 when replaced, what its runs did (JSON, '' for none)}.
local name = ARGV[1]
local created = redis.call('HEXISTS', KEYS[1], name) == 0
if created and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then
  return redis.error_reply('E_TOO_MANY_SCHEDULES the queue holds its limit of ' .. ARGV[4] .. ' schedules')
end
redis.call('HSET', KEYS[1], name, ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), name)
return { created and 1 or 0, redis.call('HGET', KEYS[3], name) or '' }
