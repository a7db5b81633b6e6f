-- chat-forget-devices: drops the cursors of a user's forgotten devices in one chat, so that they
-- hold no entries there (in the 'seen' retention mode) and take no room. A cursor its device used
-- since it was forgotten stays: that fetch started it again, and it is the device's own now.
-- KEYS[1]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[2]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  user
-- ARGV[2]  how long ago they were forgotten, in milliseconds (measured by the caller, so that
--          this shard's clock is compared only with itself)
-- ARGV[3..] devices
-- Returns the number of cursors dropped.
local dropped = 0
for i = 3, #ARGV do
  local field = ARGV[1] .. '\n' .. ARGV[i]
  local used = redis.call('ZSCORE', KEYS[2], field)
  if not used or tonumber(used) < now_ms() - tonumber(ARGV[2]) then
    dropped = dropped + redis.call('ZREM', KEYS[1], field)
    redis.call('ZREM', KEYS[2], field)
  end
end
return dropped
