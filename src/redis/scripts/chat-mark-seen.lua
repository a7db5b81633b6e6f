-- chat-mark-seen: moves a member's seen-id forward to a message id (never back), and deletes the
-- messages that every member has now seen. With chat-fetch in read-only mode this lets a client
-- acknowledge only what it has shown (at-least-once delivery).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset message JSON -> id)
-- KEYS[3]  meta (hash: last, open, created)
-- ARGV[1]  user
-- ARGV[2]  message id
-- Returns 1 when the seen-id moved, 0 when it already was at or past the id.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the user is not
-- a member; E_NO_SUCH_MESSAGE when the id is past the chat's latest message.
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
local target = tonumber(ARGV[2])
local latest = tonumber(redis.call('HGET', KEYS[3], 'last') or '0')
if target > latest then
  return redis.error_reply('E_NO_SUCH_MESSAGE messageId is past the latest message of the chat (' .. latest .. ')')
end
if target <= tonumber(seen) then
  return 0
end
redis.call('ZADD', KEYS[1], 'XX', target, ARGV[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest[2])
return 1
