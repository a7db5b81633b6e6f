-- chat-device-add: records a device as known, after its first fetch made its cursors. A user has
-- at most so many live devices: the one that fetched longest ago is forgotten for a newcomer.
-- KEYS[1]  the user's devices (zset device -> last fetch, unix ms)
-- ARGV[1]  device
-- ARGV[2]  device lifetime, in milliseconds
-- ARGV[3]  most live devices per user
-- Returns the devices forgotten to make room (their cursors in the user's chats are dropped next,
-- chat-forget-devices.lua, unless used since, so a client that makes up device after device
-- cannot grow a chat).
local now = now_ms()
local life = tonumber(ARGV[2])
local most = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[1])
local forgotten = {}
while redis.call('ZCOUNT', KEYS[1], now - life, '+inf') > most do
  local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], now - life, '+inf', 'LIMIT', 0, 1)[1]
  redis.call('ZADD', KEYS[1], now - life - 1, oldest)
  forgotten[#forgotten + 1] = oldest
end
-- Forgotten entries are kept only to tell their devices; a bounded number of them.
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(4 * most) - 1)
return forgotten
