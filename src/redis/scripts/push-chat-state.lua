-- push-chat-state: what a push decision for a chat starts from: its latest entry, who wrote it,
-- and each member's seen-id. Read once when the decision runs, after the delay.
-- KEYS[1]  meta (hash: last, ...)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  members (zset member -> seen-id)
-- ARGV[]   none
-- Returns {last entry id, its sender ('' when not kept), member, seen-id, member, seen-id, ...}.
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
local sender = ''
local entry = redis.call('ZRANGEBYSCORE', KEYS[2], last, last)[1]
if entry then
  sender = cjson.decode(entry).sender or ''
end
local reply = { last, sender }
-- One by one: unpack() would overflow Lua's stack on a large chat.
for _, value in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')) do
  reply[#reply + 1] = value
end
return reply
