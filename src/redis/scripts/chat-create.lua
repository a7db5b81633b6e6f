-- chat-create: creates a chat whose members have all seen nothing (seen-id 0) and stores its
-- first message with id 1 (the book's create_chat and first send_message, in one step). The
-- sender is the chat's first owner. The members' live devices get their cursors here: in the
-- 'seen' mode (now, or after a change) an entry is deleted once every cursor is past it, and a
-- device without one would lose what the others took before its first fetch.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, open, created, gen, mode, keep, keepMs)
-- KEYS[4]  roles (hash member -> 'owner')
-- KEYS[5]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[6]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  sender, who is also a member
-- ARGV[2]  message text
-- ARGV[3]  '1' when anyone may join, '0' when only members may add others
-- ARGV[4]  retention mode: 'history' or 'seen'
-- ARGV[5]  most entries kept
-- ARGV[6]  longest an entry is kept, in milliseconds
-- ARGV[7]  the members' live devices as `user\ndevice`, joined by tabs ('' for none)
-- ARGV[8..] the other members, distinct and without the sender
-- Returns the first message as JSON.
-- Errors, with nothing written: E_CHAT_EXISTS when the chat id is already in use.
if redis.call('EXISTS', KEYS[3]) == 1 then
  return redis.error_reply('E_CHAT_EXISTS chat id already in use')
end
local now = now_ms()

redis.call('ZADD', KEYS[1], 0, ARGV[1])
for i = 8, #ARGV do
  redis.call('ZADD', KEYS[1], 0, ARGV[i])
end
-- gen: the membership generation, 1 for the first members (chat-join says what it is for).
redis.call('HSET', KEYS[3], 'last', 1, 'open', ARGV[3], 'created', now, 'gen', 1, 'mode', ARGV[4], 'keep', ARGV[5],
  'keepMs', ARGV[6])
redis.call('HSET', KEYS[4], ARGV[1], 'owner')
for field in string.gmatch(ARGV[7], '[^\t]+') do
  redis.call('ZADD', KEYS[5], 0, field)
  redis.call('ZADD', KEYS[6], now, field)
end
local json = cjson.encode({ id = 1, sender = ARGV[1], message = ARGV[2], ts = now })
redis.call('ZADD', KEYS[2], 1, json)
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return json
