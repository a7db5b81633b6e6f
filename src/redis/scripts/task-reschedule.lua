-- task-reschedule: moves a task that has not started to run after a new delay from now (0: it
-- waits at the back of its priority's ready list).
-- KEYS[1]  records (hash number -> JSON)   KEYS[2]  delayed (zset)   KEYS[3..8]  waiting lists
-- KEYS[9]  the workers' wake-up list       KEYS[10] the pollers' wake-up list
-- ARGV[1]  the queue's name   ARGV[2]  task number   ARGV[3]  delay in ms
-- Returns the new record JSON, '' when there is no such task; E_TASK_STARTED once it has started.
local now = now_ms()
local number, delay = ARGV[2], tonumber(ARGV[3])
local ready = { HIGH = 4, NORMAL = 6, LOW = 8 }
local raw = redis.call('HGET', KEYS[1], number)
if not raw then return '' end
local record = cjson.decode(raw)
if record.state == 'DELAYED' then
  redis.call('ZREM', KEYS[2], number)
elseif record.state == 'WAITING' then
  -- Only the two lists of its priority: LREM is O(length of the list).
  local due = ({ HIGH = 3, NORMAL = 5, LOW = 7 })[record.priority]
  if redis.call('LREM', KEYS[due], 1, number) == 0 then redis.call('LREM', KEYS[due + 1], 1, number) end
else
  return redis.error_reply('E_TASK_STARTED the task is ' .. record.state .. ' and can no longer be rescheduled')
end
record.runAt = now + delay
if delay > 0 then
  record.state = 'DELAYED'
  local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  redis.call('ZADD', KEYS[2], record.runAt, number)
  if (first[2] == nil or tonumber(first[2]) > record.runAt) and redis.call('LLEN', KEYS[10]) == 0 then
    redis.call('RPUSH', KEYS[10], '1')
  end
else
  record.state = 'WAITING'
  redis.call('RPUSH', KEYS[ready[record.priority]], number)
  if redis.call('LLEN', KEYS[9]) == 0 then redis.call('RPUSH', KEYS[9], '1') end
end
local encoded = cjson.encode(record)
redis.call('HSET', KEYS[1], number, encoded)
-- The channel carries the tag of the queue's keys (keys.ts, queueKeys().changed).
redis.call(NOTIFY, 'TASK_CHANGED:' .. string.match(KEYS[1], '{[^}]*}') .. ':' .. number,
  cjson.encode({ id = ARGV[1] .. ':' .. number, state = record.state, progress = cjson.null }))
return encoded
