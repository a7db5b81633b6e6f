-- mailbox-take: the oldest messages of a mailbox, removed from it in the same step when asked
-- (at-most-once: what is taken is gone), or only read (pair with mailbox-ack for at-least-once).
-- KEYS[1]  the mailbox (list of message JSON, oldest first)
-- ARGV[1]  most messages to return
-- ARGV[2]  '1' to remove them, '0' to only read
-- Returns {messages still waiting after these, JSON, JSON, ...}.
local count = tonumber(ARGV[1])
local found = redis.call('LRANGE', KEYS[1], 0, count - 1)
local waiting = redis.call('LLEN', KEYS[1])
if ARGV[2] == '1' and #found > 0 then
  redis.call('LTRIM', KEYS[1], #found, -1)
end
local reply = { waiting - #found }
for _, json in ipairs(found) do
  reply[#reply + 1] = json
end
return reply
