-- task-extend: renews the leases of the runs a worker holds (its heartbeat).
-- KEYS[1]  records (hash number -> JSON)
-- KEYS[2]  active (zset number -> lease end, unix ms)
-- ARGV[1]  lease in ms; then pairs: ARGV[2k] task number, ARGV[2k+1] the run (attempts when taken)
-- Returns one 1 (renewed) or 0 (lost: the run timed out or the task was taken by another) per pair.
local now = now_ms()
local renewed = {}
for i = 2, #ARGV, 2 do
  local held = 0
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw then
    local record = cjson.decode(raw)
    if record.state == 'ACTIVE' and record.attempts == tonumber(ARGV[i + 1]) then
      redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), ARGV[i])
      held = 1
    end
  end
  renewed[#renewed + 1] = held
end
return renewed
