-- guild-release: stops counting a guild against a user's limit, unless it was counted again
-- since, and takes it out of the user's name index with it.
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- KEYS[2]  the user's guild names (zset, score 0)
-- ARGV[1]  the guild
-- ARGV[2]  the ticket the caller saw
-- Returns 1 when the count was dropped, 0 when it had gone or carries a newer ticket.
if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) ~= tonumber(ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
