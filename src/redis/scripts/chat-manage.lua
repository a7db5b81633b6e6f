-- chat-manage: the changes only an owner of a chat (or the service) may make: its retention, and
-- who else is an owner. A new retention applies at once to the count and to the key's expiry;
-- entries past the age go with the next append. What a retention change leaves out stays as the
-- chat has it, read here so that two changes of different parts do not undo each other.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: mode, keep, keepMs, ...)
-- KEYS[4]  roles (hash member -> 'owner')
-- ARGV[1]  caller
-- ARGV[2]  '1' when the caller is the service, which may change any chat
-- ARGV[3]  'retention' or 'role'
-- for 'retention': ARGV[4] mode ('history' or 'seen'), ARGV[5] most entries, ARGV[6] age in ms,
--          each '' to keep it; ARGV[7], ARGV[8] the count and age of a chat that has none (one
--          from before retention existed, whose mode is 'seen')
-- for 'role': ARGV[4] the member, ARGV[5] 'owner' or 'member'
-- Returns for 'role' 1 when something changed, 0 when it already was so; for 'retention' {that,
-- mode, most entries, age in ms} as now in force.
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
  local mode = ARGV[4] ~= '' and ARGV[4] or before[1] or 'seen'
  local keep = ARGV[5] ~= '' and ARGV[5] or before[2] or ARGV[7]
  local keepMs = ARGV[6] ~= '' and ARGV[6] or before[3] or ARGV[8]
  if before[1] == mode and before[2] == keep and before[3] == keepMs then
    return { 0, mode, tonumber(keep), tonumber(keepMs) }
  end
  redis.call('HSET', KEYS[3], 'mode', mode, 'keep', keep, 'keepMs', keepMs)
  local excess = redis.call('ZCARD', KEYS[2]) - tonumber(keep)
  if excess > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, excess - 1)
  end
  redis.call('PEXPIRE', KEYS[2], keepMs)
  return { 1, mode, tonumber(keep), tonumber(keepMs) }
end
local member = ARGV[4]
if not redis.call('ZSCORE', KEYS[1], member) then
  return redis.error_reply('E_NO_SUCH_MEMBER ' .. member .. ' is not a member of the chat')
end
if ARGV[5] == 'owner' then
  return redis.call('HSET', KEYS[4], member, 'owner')
end
return redis.call('HDEL', KEYS[4], member)
