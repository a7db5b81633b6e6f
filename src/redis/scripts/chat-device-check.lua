-- chat-device-check: before a device fetches, says whether its user knows it. A known device's
-- last fetch becomes now. One that fetched last longer ago than the device lifetime is forgotten
-- (its cursors in chats go too, chat-send.lua); its entry stays four lifetimes so it can be told.
-- KEYS[1]  the user's devices (zset device -> last fetch, unix ms)
-- ARGV[1]  device
-- ARGV[2]  device lifetime, in milliseconds
-- ARGV[3]  'peek' to only look (a known device's last fetch stays as it was), '' otherwise
-- Returns 0 for a known device, 1 for a new one, 2 for a forgotten one (chat-device-add then
-- records the new or forgotten device once its cursors are made).
local now = now_ms()
local life = tonumber(ARGV[2])
local peek = ARGV[3] == 'peek'
if not peek then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 4 * life)
end
local last = redis.call('ZSCORE', KEYS[1], ARGV[1])
if last and tonumber(last) >= now - life then
  if not peek then
    redis.call('ZADD', KEYS[1], now, ARGV[1])
  end
  return 0
end
return last and 2 or 1
