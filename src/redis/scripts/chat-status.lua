-- chat-status: what one member needs to know about a chat, read in one step.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  meta (hash: last, open, created)
-- ARGV[1]  user
-- Returns {seen-id, or -1 when the user is not a member or the chat is gone; latest message id;
-- member count; 1 when open}.
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen then
  return { -1, 0, 0, 0 }
end
local meta = redis.call('HMGET', KEYS[2], 'last', 'open')
return { tonumber(seen), tonumber(meta[1] or '0'), redis.call('ZCARD', KEYS[1]), tonumber(meta[2] or '0') }
