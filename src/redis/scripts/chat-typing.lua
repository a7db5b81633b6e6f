-- chat-typing: a member starts or stops typing. The chat's other members are told on the chat's
-- change channel; nothing is kept past the notice's short life (the keys expire with it). Who is
-- typing is always recorded, but each kind of notice (a start, a stop) is told at most once a
-- second per member, and a stop only when they were typing: a client that calls on every
-- keystroke, or that starts and stops in turn, tells the others at most twice a second.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  typing (zset member -> when their notice runs out, unix ms)
-- KEYS[3]  told (zset `start\nmember` or `stop\nmember` -> when the others were told, unix ms)
-- ARGV[1]  user
-- ARGV[2]  '1' to start typing, '0' to stop
-- ARGV[3]  how long a notice lasts, in milliseconds
-- ARGV[4]  least time between two notices of one kind of one member, in milliseconds
-- ARGV[5]  the chat's change channel; ARGV[6] the chat id
-- Returns 1 when the members were told, 0 when not (told a moment ago, or nothing to stop).
-- Errors: E_CHAT_NOT_FOUND when the chat does not exist or the user is not a member.
local user = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], user) then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
local now = now_ms()
local life, gap = tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - gap)
local kind
if ARGV[2] == '1' then
  kind = 'start'
  redis.call('ZADD', KEYS[2], now + life, user)
  redis.call('PEXPIRE', KEYS[2], life)
else
  kind = 'stop'
  if redis.call('ZREM', KEYS[2], user) == 0 then
    return 0
  end
end
local told = kind .. '\n' .. user
if redis.call('ZSCORE', KEYS[3], told) then
  return 0
end
redis.call('ZADD', KEYS[3], now, told)
redis.call('PEXPIRE', KEYS[3], gap)
redis.call(NOTIFY, ARGV[5], cjson.encode({ chatId = ARGV[6], change = 'TYPING', user = user, messageId = cjson.null }))
return 1
