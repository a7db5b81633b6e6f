-- chat-forget-devices: drops the cursors of a user's forgotten devices in one chat, so that they
-- hold no entries there (in the 'seen' retention mode) and take no room.
-- KEYS[1]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[2]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  user
-- ARGV[2..] devices
-- Returns the number of cursors dropped.
local dropped = 0
for i = 2, #ARGV do
  local field = ARGV[1] .. '\n' .. ARGV[i]
  dropped = dropped + redis.call('ZREM', KEYS[1], field)
  redis.call('ZREM', KEYS[2], field)
end
return dropped
