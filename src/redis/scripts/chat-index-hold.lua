-- chat-index-hold: holds a place in a user's chat index for a chat about to be created, before
-- its id is taken (the id counter is on another slot): a user already in the most chats allowed
-- refuses here, so a refused creation uses up no chat id. chat-index-add turns the hold into the
-- entry; a hold its process never turned (it died) lapses after ARGV[3].
-- KEYS[1]  the user's chat index (zset chat id -> stamp)
-- KEYS[2]  the user's holds (zset token -> unix ms when it lapses)
-- ARGV[1]  token naming the hold
-- ARGV[2]  most chats a user may belong to
-- ARGV[3]  how long the hold lasts, in milliseconds
-- Returns 1.
-- Errors, with nothing written: E_TOO_MANY_CHATS when the index and the live holds fill the limit.
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then
  return redis.error_reply('E_TOO_MANY_CHATS a user belongs to at most ' .. ARGV[2] .. ' chats')
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
