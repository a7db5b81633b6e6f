-- task-retry: gives a FAILED task another set of runs: it waits at the back of its priority's
-- ready list. `attempts` keeps counting every run (a run is known by its number, so a worker of
-- an old run can never settle a new one); `maxAttempts` grows by the task's runs per try, the
-- value it had when it first failed. The last error stays while the task waits and runs again: a
-- run that fails replaces it, one that completes clears it (task-next.lua).
-- KEYS[1]  records (hash number -> JSON)   KEYS[2]  finished (zset)   KEYS[3]  progress (hash)
-- KEYS[4..6]  the ready lists of HIGH, NORMAL and LOW   KEYS[7]  the workers' wake-up list
-- ARGV[1]  the queue's name   ARGV[2]  task number
-- Returns the new record JSON, '' when there is no such task; E_TASK_NOT_FAILED otherwise.
local number = ARGV[2]
local raw = redis.call('HGET', KEYS[1], number)
if not raw then return '' end
local record = cjson.decode(raw)
if record.state ~= 'FAILED' then
  return redis.error_reply('E_TASK_NOT_FAILED the task is ' .. record.state .. '; only a FAILED task can be retried')
end
record.runsPerTry = record.runsPerTry or record.maxAttempts
record.maxAttempts = record.attempts + record.runsPerTry
record.state = 'WAITING'
record.runAt = now_ms()
record.finishedAt = nil
record.retries = (record.retries or 0) + 1
local encoded = cjson.encode(record)
redis.call('HSET', KEYS[1], number, encoded)
redis.call('ZREM', KEYS[2], number)
redis.call('HDEL', KEYS[3], number)
redis.call('RPUSH', KEYS[({ HIGH = 4, NORMAL = 5, LOW = 6 })[record.priority]], number)
if redis.call('LLEN', KEYS[7]) == 0 then redis.call('RPUSH', KEYS[7], '1') end
-- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. number,
  cjson.encode({ id = ARGV[1] .. ':' .. number, state = 'WAITING', progress = cjson.null }))
return encoded
