-- mailbox-ack: removes the messages at the head of a mailbox whose ids are at most the given id,
-- after the client has shown them. mailbox-send gives ids that count up by one and only the head
-- is ever removed, so the ids in the list are consecutive: only the head needs decoding.
-- KEYS[1]  the mailbox (list of message JSON, oldest first)
-- ARGV[1]  highest message id to remove
-- Returns how many messages were removed.
local head = redis.call('LINDEX', KEYS[1], 0)
if not head then
  return 0
end
local count = tonumber(ARGV[1]) - cjson.decode(head).id + 1
if count <= 0 then
  return 0
end
count = math.min(count, redis.call('LLEN', KEYS[1]))
redis.call('LTRIM', KEYS[1], count, -1)
return count
