-- chat-join: adds members to a chat, each starting at the chat's latest entry id so that they
-- see only what comes after, in history too (the book's join_chat). A user who already is a
-- member keeps their seen-id, so joining twice loses nothing.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  meta (hash: last, open, created, gen)
-- KEYS[3]  joined (hash member -> entry id after which they may read)
-- KEYS[4]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[5]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  'join' (the caller joins: the chat must be open or the caller a member) or 'add'
--          (the caller adds others: the caller must be a member)
-- ARGV[2]  the caller
-- ARGV[3]  most members a chat may have
-- ARGV[4]  the chat's change channel; ARGV[5] the chat id
-- ARGV[6]  the live devices of the users to add, as `user\ndevice` joined by tabs: a newcomer's
--          devices get their cursors at the joining (chat-create says why)
-- ARGV[7..] users to add
-- Returns the chat as the caller now sees it: {caller's seen-id, latest message id, member count,
-- 1 when open, membership generation}. The generation goes up by one whenever members are added:
-- it becomes the stamp of the newcomers' index entries, so a reader that found an older entry
-- stale (the user had left) can never remove the entry of a later join, whatever the clocks do.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the caller may
-- not see it; E_CHAT_FULL when the members would exceed ARGV[3].
if redis.call('EXISTS', KEYS[2]) == 0 then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
local callerIsMember = redis.call('ZSCORE', KEYS[1], ARGV[2]) ~= false
local open = redis.call('HGET', KEYS[2], 'open') == '1'
if not callerIsMember and not (ARGV[1] == 'join' and open) then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end

local newcomers = {}
for i = 7, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    newcomers[#newcomers + 1] = ARGV[i]
  end
end
if redis.call('ZCARD', KEYS[1]) + #newcomers > tonumber(ARGV[3]) then
  return redis.error_reply('E_CHAT_FULL a chat has at most ' .. ARGV[3] .. ' members')
end
local latest = tonumber(redis.call('HGET', KEYS[2], 'last') or '0')
-- A newcomer reads nothing from before their joining, history included.
for _, user in ipairs(newcomers) do
  redis.call('ZADD', KEYS[1], latest, user)
  redis.call('HSET', KEYS[3], user, latest)
  redis.call(NOTIFY, ARGV[4], cjson.encode({ chatId = ARGV[5], change = 'JOINED', user = user, messageId = latest }))
end
if #newcomers > 0 then
  local isNew, now = {}, now_ms()
  for _, user in ipairs(newcomers) do
    isNew[user] = true
  end
  for field in string.gmatch(ARGV[6], '[^\t]+') do
    if isNew[string.match(field, '^(.-)\n')] then
      redis.call('ZADD', KEYS[4], latest, field)
      redis.call('ZADD', KEYS[5], now, field)
    end
  end
end
local gen
if #newcomers > 0 then
  gen = redis.call('HINCRBY', KEYS[2], 'gen', 1)
else
  gen = tonumber(redis.call('HGET', KEYS[2], 'gen') or '0')
end
local seen = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[2]))
return { seen, latest, redis.call('ZCARD', KEYS[1]), open and 1 or 0, gen }
