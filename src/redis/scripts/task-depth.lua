-- task-depth: how much a queue holds undone, and how long its oldest due task has waited, for the
-- metrics scrape. Reads a fixed number of entries whatever the queue's size: the lists' and sets'
-- lengths, and the record of each waiting list's head (the next task taken from it).
-- KEYS[1]  records (hash number -> JSON)   KEYS[2]  delayed (zset number -> due, unix ms)
-- KEYS[3]  active (zset)   KEYS[4..9] waiting lists: due HIGH, ready HIGH, due NORMAL, ready NORMAL,
-- due LOW, ready LOW   KEYS[10] the paused flag
-- ARGV[]   none
-- Returns {waiting (all six lists), delayed, active, paused (1/0), when the longest-due task not
-- yet taken came due (unix ms, -1 for none), now (unix ms)}. A delayed task past its time counts
-- as due: the poller has not moved it yet.
local now = now_ms()
local oldest = -1
local function due(at)
  if at ~= nil and at <= now and (oldest < 0 or at < oldest) then oldest = at end
end

local waiting = 0
for list = 4, 9 do
  waiting = waiting + redis.call('LLEN', KEYS[list])
  local head = redis.call('LINDEX', KEYS[list], 0)
  local raw = head and redis.call('HGET', KEYS[1], head)
  if raw then due(tonumber(cjson.decode(raw).runAt)) end
end
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if first[2] then due(tonumber(first[2])) end

return {
  waiting,
  redis.call('ZCARD', KEYS[2]),
  redis.call('ZCARD', KEYS[3]),
  redis.call('EXISTS', KEYS[10]),
  oldest,
  now,
}
