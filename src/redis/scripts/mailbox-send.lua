-- mailbox-send: appends a direct message to the recipient's mailbox with the mailbox's next id
-- (the book's single-recipient list), unless the mailbox is full: a full mailbox refuses the
-- message rather than dropping an older one.
-- KEYS[1]  the recipient's mailbox (list of message JSON, oldest first)
-- KEYS[2]  the mailbox's id counter
-- ARGV[1]  sender
-- ARGV[2]  message text
-- ARGV[3]  most messages the mailbox may hold
-- Returns {message JSON, messages now waiting}.
-- Errors, with nothing written: E_MAILBOX_FULL when ARGV[3] messages are already waiting.
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.error_reply('E_MAILBOX_FULL the recipient has ' .. ARGV[3] .. ' unread messages; try again later')
end
local now = now_ms()
local id = redis.call('INCR', KEYS[2])
local json = cjson.encode({ id = id, sender = ARGV[1], message = ARGV[2], ts = now })
return { json, redis.call('RPUSH', KEYS[1], json) }
