-- task-progress: records what a running task's handler reports of its progress and tells the
-- task's subscribers. Only the worker holding the current run may report: one whose lease ran
-- out changes nothing.
-- KEYS[1]  records (hash number -> JSON)   KEYS[2]  progress (hash number -> JSON)
-- ARGV[1]  the queue's name   ARGV[2]  task number   ARGV[3]  the run (attempts when taken)
-- ARGV[4]  the progress as JSON
-- Returns 1 when recorded, 0 when the run is no longer held.
local raw = redis.call('HGET', KEYS[1], ARGV[2])
if not raw then return 0 end
local record = cjson.decode(raw)
if record.state ~= 'ACTIVE' or record.attempts ~= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
-- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. ARGV[2],
  cjson.encode({ id = ARGV[1] .. ':' .. ARGV[2], state = 'ACTIVE', progress = ARGV[4] }))
return 1
