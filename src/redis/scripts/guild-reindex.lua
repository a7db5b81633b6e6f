-- guild-reindex: builds a user's guild name index from their counted guilds, for users who
-- joined before the index existed (guild-mine asks for it when the sizes differ).
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- KEYS[2]  the user's guild names (zset, score 0)
-- ARGV[]   none
-- Returns the number of names indexed.
if redis.call('ZCARD', KEYS[2]) == redis.call('ZCARD', KEYS[1]) then return redis.call('ZCARD', KEYS[2]) end
redis.call('DEL', KEYS[2])
for _, guild in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  redis.call('ZADD', KEYS[2], 0, guild)
end
return redis.call('ZCARD', KEYS[2])
