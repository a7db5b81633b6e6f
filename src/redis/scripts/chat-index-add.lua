-- chat-index-add: records a chat in a user's chat index before the chat's own change (so a
-- process that dies in between leaves the entry, never a member without one). Membership itself
-- lives in the chat; the index only tells fetches which chats to look at.
-- The entry's stamp lets a reader that found it stale remove it only if nobody wrote it since.
-- This provisional stamp is minus the Redis server's time in microseconds: never a membership
-- generation (those are positive), which the entry gets once the change has landed (see
-- ChatRepository.reindex), and no counter key is needed, so an entry written for a change that
-- was then refused and taken back leaves nothing behind.
-- KEYS[1]  the user's chat index (zset chat id -> stamp)
-- KEYS[2]  the user's holds (zset token -> unix ms when it lapses, chat-index-hold); optional
-- ARGV[1]  chat id
-- ARGV[2]  most chats a user may belong to; 0 for no check
-- ARGV[3]  the token of a hold taken for this chat ('' or absent for none): the place it held is
--          this entry's, so no check; a place held for another chat counts as taken
-- Returns {the provisional stamp, the stamp the entry had before or false}.
-- Errors, with nothing written: E_TOO_MANY_CHATS when the chat is new to a full index.
local limit = tonumber(ARGV[2])
local held = 0
if KEYS[2] then
  local now = now_ms()
  if (ARGV[3] or '') ~= '' and tonumber(redis.call('ZSCORE', KEYS[2], ARGV[3]) or '0') > now then
    redis.call('ZREM', KEYS[2], ARGV[3])
    limit = 0
  end
  held = redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf')
end
if limit > 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) + held >= limit then
  return redis.error_reply('E_TOO_MANY_CHATS a user belongs to at most ' .. ARGV[2] .. ' chats')
end
local previous = redis.call('ZSCORE', KEYS[1], ARGV[1])
local stamp = -now_us()
redis.call('ZADD', KEYS[1], stamp, ARGV[1])
return { stamp, previous }
