-- counter-update: adds a count to the current time slice of one counter at every precision and
-- records the counter in each precision's known set, in one atomic step (the book's
-- update_counter, with the server's clock instead of the client's).
-- KEYS[2i-1]  known set (zset) of the counter's bucket, for precision i
-- KEYS[2i]    sample hash of the counter, for precision i
-- ARGV[1]     counter name
-- ARGV[2]     count to add (integer)
-- ARGV[3]     time in unix seconds, or '' for the server's clock
-- ARGV[4]     how many seconds ARGV[3] may lie ahead of the server's clock
-- ARGV[5]     channel on which to announce the update ({"name", "time"} as JSON), or '' for none
-- ARGV[4+2i]  precision i, in seconds   ARGV[5+2i]  slices the cleanup keeps at precision i
-- Returns the time used (unix seconds) as a string.
-- Errors, with nothing written: E_FUTURE when ARGV[3] is too far ahead; E_TOO_OLD when it lies
-- before the window of every precision (as counter-clean.lua reckons it, so the cleanup would
-- delete it everywhere), replying the start of the longest window, its precision and slices;
-- E_OVERFLOW when a sample would leave the range of integers that clients can represent exactly
-- (2^53 - 1). A time older than some windows only is written at every precision, and the
-- cleanup removes it from those.
local name = ARGV[1]
local count = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local at = now
if ARGV[3] ~= '' then
  at = tonumber(ARGV[3])
  if at > now + tonumber(ARGV[4]) then
    return redis.error_reply('E_FUTURE at is more than ' .. ARGV[4] .. ' seconds ahead of the server clock')
  end
  -- The oldest slice start any precision keeps; the first precision wins a tie.
  local second = math.floor(now)
  local from, longest, keeps
  for i = 6, #ARGV, 2 do
    local precision, keep = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
    local oldest = (math.floor(second / precision) - keep + 1) * precision
    if from == nil or oldest < from then from, longest, keeps = oldest, precision, keep end
  end
  if at < from then
    return redis.error_reply(string.format('E_TOO_OLD %d %d %d', from, longest, keeps))
  end
end

local MAX_SAFE = 9007199254740991
local slices = {}
for i = 6, #ARGV, 2 do
  local precision = tonumber(ARGV[i])
  local slice = string.format('%d', math.floor(at / precision) * precision)
  local current = tonumber(redis.call('HGET', KEYS[i - 4], slice) or '0')
  if math.abs(current + count) > MAX_SAFE then
    return redis.error_reply('E_OVERFLOW the sample would leave the safe integer range')
  end
  slices[i] = slice
end

for i = 6, #ARGV, 2 do
  redis.call('ZADD', KEYS[i - 5], 0, name)
  redis.call('HINCRBY', KEYS[i - 4], slices[i], ARGV[2])
end
local time = string.format('%.6f', at)
-- Announced from here so that an update is one round trip to Redis.
if ARGV[5] ~= '' then
  redis.call(NOTIFY, ARGV[5], '{"name":' .. cjson.encode(name) .. ',"time":' .. time .. '}')
end
return time
