-- chat-index-remove: drops a chat from a user's chat index, but only if its stamp is the one the
-- caller read before finding that the user is not a member; a changed stamp means a join of that
-- chat is under way and the entry must stay.
-- KEYS[1]  the user's chat index (zset chat id -> stamp)
-- ARGV[1]  chat id
-- ARGV[2]  the stamp read earlier
-- Returns 1 when removed, 0 when the entry was gone or had changed.
local stamp = redis.call('ZSCORE', KEYS[1], ARGV[1])
if stamp and tonumber(stamp) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
