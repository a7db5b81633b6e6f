-- chat-fetch: the messages of one chat after a member's seen-id, oldest first. When told to
-- advance, it also moves the seen-id to the last message returned and deletes the messages that
-- every member has now seen (the book's fetch_pending_messages, for one chat, in one step).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset message JSON -> id)
-- KEYS[3]  meta (hash: last, open, created)
-- ARGV[1]  user
-- ARGV[2]  most messages to return
-- ARGV[3]  '1' to advance the seen-id and clean up, '0' to only read
-- Returns {messages still pending after these (-1 when the user is not a member), JSON, JSON, ...}.
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not seen then
  return { -1 }
end
local found = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. seen, '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local latest = tonumber(redis.call('HGET', KEYS[3], 'last') or '0')
local upTo = tonumber(seen)
local reply = { 0 }
for i = 1, #found, 2 do
  reply[#reply + 1] = found[i]
  upTo = tonumber(found[i + 1])
end
reply[1] = latest - upTo

if ARGV[3] == '1' and #found > 0 then
  redis.call('ZADD', KEYS[1], 'XX', upTo, ARGV[1])
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest[2])
end
return reply
