-- task-schedule-due: the scheduler's look at a queue: which schedules are due, and when the
-- next one is. Reads only; task-schedule-tick checks again what it decides on.
-- KEYS[1]  definitions (hash name -> JSON)   KEYS[2]  next runs (zset name -> unix ms)
-- ARGV[1]  most due schedules to return
-- Returns {now (unix ms), the earliest next run after now (-1: none), then for each due
-- schedule, earliest first: name, its next run, its definition JSON}.
local now = now_ms()
local reply = { now, -1 }
local later = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if later[2] then reply[2] = tonumber(later[2]) end
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
for i = 1, #due, 2 do
  local definition = redis.call('HGET', KEYS[1], due[i])
  if definition then
    reply[#reply + 1] = due[i]
    reply[#reply + 1] = tonumber(due[i + 1])
    reply[#reply + 1] = definition
  end
end
return reply
