-- chat-index-add: records a chat in a user's chat index with a fresh stamp. Membership itself
-- lives in the chat; the index only tells fetches which chats to look at. The stamp lets a
-- reader that found the entry stale remove it only if nobody re-added it meanwhile.
-- Stamps are the Redis server's time in microseconds, or one more than the index's highest stamp
-- when that is later: they grow for as long as the index exists, and need no counter key, so an
-- entry written for a change that was then refused and taken back leaves nothing behind.
-- KEYS[1]  the user's chat index (zset chat id -> stamp)
-- ARGV[1]  chat id
-- ARGV[2]  most chats a user may belong to; 0 for no check (re-recording a chat just joined)
-- Returns the new stamp.
-- Errors, with nothing written: E_TOO_MANY_CHATS when the chat is new to a full index.
local limit = tonumber(ARGV[2])
if limit > 0 and not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= limit then
  return redis.error_reply('E_TOO_MANY_CHATS a user belongs to at most ' .. ARGV[2] .. ' chats')
end
local time = redis.call('TIME')
local stamp = tonumber(time[1]) * 1000000 + tonumber(time[2])
local highest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
if highest and tonumber(highest) >= stamp then
  stamp = tonumber(highest) + 1
end
redis.call('ZADD', KEYS[1], stamp, ARGV[1])
return stamp
