-- chat-index-remove: drops a chat from a user's chat index, but only if its stamp is the one the
-- caller read before finding that the user is not a member; a changed stamp means a join of that
-- chat is under way and the entry must stay. So does a provisional stamp (below zero: written
-- before a change, see chat-index-add) younger than a minute: its change may have landed a moment
-- ago, with the index write that follows it still on its way; older ones were left by a process
-- that died, and go. The process that wrote an entry takes it back with 'force' when its change
-- was refused, putting back the stamp the entry had before, if it had one.
-- KEYS[1]  the user's chat index (zset chat id -> stamp)
-- ARGV[1]  chat id
-- ARGV[2]  the stamp read earlier
-- ARGV[3]  'force' to take back one's own entry whatever its age; '' otherwise
-- ARGV[4]  the stamp to put back instead of removing the entry; '' for none
-- Returns 1 when removed or put back, 0 when the entry was gone, had changed or is kept.
local stamp = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not stamp or tonumber(stamp) ~= tonumber(ARGV[2]) then
  return 0
end
if tonumber(stamp) < 0 and ARGV[3] ~= 'force' then
  local now = now_us()
  if now + tonumber(stamp) < 60000000 then
    return 0
  end
end
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[1], ARGV[1])
end
return 1
