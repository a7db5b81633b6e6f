-- push-candidates: a user's devices that may be pushed to: those with a target, no live
-- subscription on any instance, and still live themselves. A target whose device was forgotten
-- (silent for the device lifetime, or pushed out by newer devices) goes with it.
-- KEYS[1]  push targets (hash device -> target JSON)
-- KEYS[2]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- KEYS[3]  devices (zset device -> last fetch, unix ms)
-- ARGV[1]  the device lifetime, in milliseconds
-- ARGV[2]  kinds wanted, as `,apns,fcm,` (a badge-only update), or '' for every kind
-- Returns {device, target JSON, device, target JSON, ...}.
--- @include "push-online"
local now = now_ms()
local online = push_online(KEYS[2], now)
local since = now - tonumber(ARGV[1])
local reply = {}
local targets = redis.call('HGETALL', KEYS[1])
for i = 1, #targets, 2 do
  local device, json = targets[i], targets[i + 1]
  local lastFetch = tonumber(redis.call('ZSCORE', KEYS[3], device) or '0')
  if lastFetch < since then
    redis.call('HDEL', KEYS[1], device)
  elseif not online[device] then
    -- A target that does not decode is passed over, not allowed to fail the chat's decision.
    local decoded, target = pcall(cjson.decode, json)
    local kind = decoded and type(target) == 'table' and type(target.kind) == 'string' and target.kind
    if kind and (ARGV[2] == '' or string.find(ARGV[2], ',' .. kind .. ',', 1, true)) then
      reply[#reply + 1] = device
      reply[#reply + 1] = json
    end
  end
end
return reply
