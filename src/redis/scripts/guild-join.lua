-- guild-join: adds a member's entry to a guild unless the guild is full (the book's join_guild).
-- KEYS[1]  the guild's members (zset, score 0)
-- ARGV[1]  the member's entry (see guildEntry in guild.ts)
-- ARGV[2]  most members a guild may hold
-- Returns 1 when added, 0 when already a member (a member already in never counts as full).
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.error_reply('E_GUILD_FULL the limit is ' .. ARGV[2])
end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
return 1
