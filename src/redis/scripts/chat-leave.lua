-- chat-leave: removes a member. When the last member leaves, every key of the chat is deleted;
-- otherwise the messages that every remaining member has seen are deleted (the book's leave_chat).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset message JSON -> id)
-- KEYS[3]  meta (hash: last, open, created)
-- KEYS[4]  sent (hash of remembered clientMessageIds)
-- KEYS[5]  sent expiry (zset)
-- ARGV[1]  user
-- Returns 1 when the user left, 0 when they were not a member (or the chat does not exist).
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
else
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', oldest[2])
end
return 1
