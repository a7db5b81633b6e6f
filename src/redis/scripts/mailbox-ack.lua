-- mailbox-ack: removes the messages at the head of a mailbox whose ids are at most the given id,
-- after the client has shown them. Ids grow along the list, so this is a prefix.
-- KEYS[1]  the mailbox (list of message JSON, oldest first)
-- ARGV[1]  highest message id to remove
-- ARGV[2]  most messages to remove in one call
-- Returns how many messages were removed.
local upTo = tonumber(ARGV[1])
local head = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
local count = 0
for _, json in ipairs(head) do
  if cjson.decode(json).id > upTo then
    break
  end
  count = count + 1
end
if count > 0 then
  redis.call('LTRIM', KEYS[1], count, -1)
end
return count
