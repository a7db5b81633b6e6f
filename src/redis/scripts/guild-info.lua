-- guild-info: a guild's member count, and whether one user is a member.
-- KEYS[1]  the guild's members (zset, score 0)
-- ARGV[1]  the user's entry (see guildEntry in guild.ts)
-- Returns {1 if a member else 0, member count}.
return { redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0, redis.call('ZCARD', KEYS[1]) }
