-- push-presence-online: the devices of one user that some API instance tells over a socket, as
-- the push decision sees them (includes/push-online.lua). For tests and diagnostics.
-- KEYS[1]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- ARGV[1]  the time asked about (unix ms), or '' for now by Redis's clock
-- Returns the devices, in byte order.
--- @include "push-online"
local now = tonumber(ARGV[1]) or now_ms()
local devices = {}
for device in pairs(push_online(KEYS[1], now)) do devices[#devices + 1] = device end
table.sort(devices)
return devices
