-- chat-manage: the changes only an owner of a chat (or the service) may make: its retention, and
-- who else is an owner. A new retention applies at once to the count and to the key's expiry;
-- entries past the age go with the next append.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: mode, keep, keepMs, ...)
-- KEYS[4]  roles (hash member -> 'owner')
-- ARGV[1]  caller
-- ARGV[2]  '1' when the caller is the service, which may change any chat
-- ARGV[3]  'retention' or 'role'
-- for 'retention': ARGV[4] mode ('history' or 'seen'), ARGV[5] most entries, ARGV[6] age in ms
-- for 'role': ARGV[4] the member, ARGV[5] 'owner' or 'member'
-- Returns 1 when something changed, 0 when it already was so.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the caller is
-- not a member; E_NOT_CHAT_OWNER when the caller is a member but no owner; E_NO_SUCH_MEMBER when
-- the member named is not one.
local caller = ARGV[1]
if redis.call('EXISTS', KEYS[3]) == 0 then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
if ARGV[2] ~= '1' then
  if not redis.call('ZSCORE', KEYS[1], caller) then
    return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
  end
  if redis.call('HGET', KEYS[4], caller) ~= 'owner' then
    return redis.error_reply('E_NOT_CHAT_OWNER only an owner of the chat may change this')
  end
end
if ARGV[3] == 'retention' then
  local before = redis.call('HMGET', KEYS[3], 'mode', 'keep', 'keepMs')
  if before[1] == ARGV[4] and before[2] == ARGV[5] and before[3] == ARGV[6] then
    return 0
  end
  redis.call('HSET', KEYS[3], 'mode', ARGV[4], 'keep', ARGV[5], 'keepMs', ARGV[6])
  local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
  if excess > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, excess - 1)
  end
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
  return 1
end
local member = ARGV[4]
if not redis.call('ZSCORE', KEYS[1], member) then
  return redis.error_reply('E_NO_SUCH_MEMBER ' .. member .. ' is not a member of the chat')
end
if ARGV[5] == 'owner' then
  return redis.call('HSET', KEYS[4], member, 'owner')
end
return redis.call('HDEL', KEYS[4], member)
