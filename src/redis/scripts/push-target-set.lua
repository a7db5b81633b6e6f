-- push-target-set: registers a device's push target, in place of the one it had. The device must
-- be a live one of the user's (it fetched within the device lifetime), so a made-up name cannot
-- hold a target. The same endpoint or token on another device of the user moves here, so one
-- phone is never pushed twice; targets of devices no longer live go, so they hold no place.
-- KEYS[1]  the user's devices (zset device -> last fetch, unix ms)
-- KEYS[2]  the user's push targets (hash device -> JSON of the target with `at`)
-- ARGV[1]  device
-- ARGV[2]  the target, a JSON object (`at`, now, is added here)
-- ARGV[3]  its kind
-- ARGV[4]  its address: the endpoint (Web Push) or the token
-- ARGV[5]  device lifetime, in milliseconds
-- ARGV[6]  most targets per user
-- Returns { at (unix ms), the device's previous target ('' for none), then the device and JSON
-- of each target removed from another device }. Nothing changes when it fails.
--- @include "push-target-of"
local device, kind, address = ARGV[1], ARGV[3], ARGV[4]
local now = now_ms()
local live_since = now - tonumber(ARGV[5])

local function live(name)
  local last = redis.call('ZSCORE', KEYS[1], name)
  return last ~= false and tonumber(last) >= live_since
end

if not live(device) then
  return redis.error_reply('E_PUSH_DEVICE_NOT_FOUND device is not a live device of the user')
end

local previous = ''
local kept = 1
local dropped = {}
local flat = redis.call('HGETALL', KEYS[2])
for i = 1, #flat, 2 do
  local other, json = flat[i], flat[i + 1]
  if other == device then
    previous = json
  else
    local other_kind, other_address = push_target_of(json)
    if live(other) and not (other_kind == kind and other_address == address) then
      kept = kept + 1
    else
      dropped[#dropped + 1] = other
      dropped[#dropped + 1] = json
    end
  end
end
-- Checked before anything is written: a refusal leaves every target as it was.
if kept > tonumber(ARGV[6]) then
  return redis.error_reply('E_PUSH_TOO_MANY_TARGETS the most is ' .. ARGV[6])
end

local reply = { now, previous }
for i = 1, #dropped, 2 do
  redis.call('HDEL', KEYS[2], dropped[i])
  reply[#reply + 1] = dropped[i]
  reply[#reply + 1] = dropped[i + 1]
end
redis.call('HSET', KEYS[2], device, string.sub(ARGV[2], 1, -2) .. ',"at":' .. now .. '}')
return reply
