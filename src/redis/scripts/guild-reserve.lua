-- guild-reserve: counts a guild against a user's limit, or renews the count, under a new ticket.
-- A leave drops a count only while it still carries the ticket the leave saw, so a join that
-- renews its count after adding the member can never lose it to a leave running alongside.
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- KEYS[2]  the user's ticket counter (string)
-- ARGV[1]  the guild
-- ARGV[2]  most guilds a user may belong to
-- Returns {1 if the guild was already counted else 0, the new ticket}.
local counted = redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0
if counted == 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.error_reply('E_TOO_MANY_GUILDS the limit is ' .. ARGV[2])
end
local ticket = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], ticket, ARGV[1])
return { counted, ticket }
