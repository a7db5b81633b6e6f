-- task-pause: pauses or resumes a queue. While paused, workers take nothing (task-next reads the
-- flag); runs in progress finish and are recorded, delays still end and tasks can still be added,
-- so nothing is lost. Resuming wakes a worker when tasks are waiting.
-- KEYS[1]  the paused flag (string: when it was paused, unix ms)   KEYS[2]  the workers' wake-up list
-- KEYS[3..8]  waiting lists
-- ARGV[1]  '1' to pause, '0' to resume
-- Returns 1 when the queue was paused before this step, 0 when it was not.
local was = redis.call('EXISTS', KEYS[1])
if ARGV[1] == '1' then
  if was == 0 then redis.call('SET', KEYS[1], now_ms()) end
  return was
end
redis.call('DEL', KEYS[1])
for list = 3, 8 do
  if redis.call('LLEN', KEYS[list]) > 0 then
    if redis.call('LLEN', KEYS[2]) == 0 then redis.call('RPUSH', KEYS[2], '1') end
    break
  end
end
return was
