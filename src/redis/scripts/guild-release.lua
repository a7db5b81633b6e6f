-- guild-release: stops counting a guild against a user's limit, unless it was counted again since.
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- ARGV[1]  the guild
-- ARGV[2]  the ticket the caller saw
-- Returns 1 when the count was dropped, 0 when it had gone or carries a newer ticket.
if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
