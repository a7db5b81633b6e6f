-- task-cancel: cancels a task that has not started (WAITING or DELAYED); running and finished
-- tasks are left as they are.
-- KEYS[1]  records (hash number -> JSON)   KEYS[2]  delayed (zset)   KEYS[3..8]  waiting lists
-- KEYS[9]  finished (zset number -> when)  KEYS[10] counts (hash)
-- ARGV[1]  the queue's name   ARGV[2]  task number
-- Returns 1 when cancelled, 0 when the task was not waiting (or does not exist).
local now = now_ms()
local number = ARGV[2]
local raw = redis.call('HGET', KEYS[1], number)
if not raw then return 0 end
local record = cjson.decode(raw)
if record.state == 'DELAYED' then
  redis.call('ZREM', KEYS[2], number)
elseif record.state == 'WAITING' then
  -- Only the two lists of its priority: LREM is O(length of the list).
  local due = ({ HIGH = 3, NORMAL = 5, LOW = 7 })[record.priority]
  if redis.call('LREM', KEYS[due], 1, number) == 0 then redis.call('LREM', KEYS[due + 1], 1, number) end
else
  return 0
end
record.state = 'CANCELLED'
record.finishedAt = now
redis.call('HSET', KEYS[1], number, cjson.encode(record))
redis.call('ZADD', KEYS[9], now, number)
redis.call('HINCRBY', KEYS[10], 'CANCELLED', 1)
-- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. number,
  cjson.encode({ id = ARGV[1] .. ':' .. number, state = 'CANCELLED', progress = cjson.null }))
return 1
