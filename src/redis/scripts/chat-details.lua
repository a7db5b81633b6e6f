-- chat-details: what a member may see of a chat besides its ids, read in one step: its retention,
-- the caller's role and who is typing now.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  meta (hash: mode, keep, keepMs, ...)
-- KEYS[3]  roles (hash member -> 'owner')
-- KEYS[4]  typing (zset member -> when their notice runs out, unix ms)
-- ARGV[1]  user
-- Returns {} when the user is not a member, else {mode or false, keep or false, keepMs or false,
-- 'owner' or false, typing member, ...}.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {}
end
local meta = redis.call('HMGET', KEYS[2], 'mode', 'keep', 'keepMs')
local reply = { meta[1], meta[2], meta[3], redis.call('HGET', KEYS[3], ARGV[1]) }
for _, user in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '(' .. now_ms(), '+inf')) do
  reply[#reply + 1] = user
end
return reply
