-- guild-reserve: counts a guild against a user's limit, or renews the count, under a new ticket,
-- and lists the guild in the user's name index (for myGuilds). A leave drops a count only while
-- it still carries the ticket the leave saw, so a join that renews its count after adding the
-- member can never lose it to a leave running alongside. A join writes here before it adds the
-- member to the guild, and a leave removes the member first: the user's guilds always include
-- every guild they are in, never the reverse.
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- KEYS[2]  the user's ticket counter (string)
-- KEYS[3]  the user's guild names (zset, score 0, kept equal to KEYS[1]'s members)
-- ARGV[1]  the guild
-- ARGV[2]  most guilds a user may belong to
-- Returns {1 if the guild was already counted else 0, the new ticket}.
local counted = redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0
if counted == 0 and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return redis.error_reply('E_TOO_MANY_GUILDS the limit is ' .. ARGV[2])
end
-- Users who joined before the name index existed have none yet: built here, once (bounded by
-- the per-user limit). The index only ever holds names of KEYS[1], so equal sizes mean equal sets.
if redis.call('ZCARD', KEYS[3]) ~= redis.call('ZCARD', KEYS[1]) then
  redis.call('DEL', KEYS[3])
  for _, guild in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    redis.call('ZADD', KEYS[3], 0, guild)
  end
end
local ticket = redis.call('INCR', KEYS[2])
redis.call('ZADD', KEYS[1], ticket, ARGV[1])
redis.call('ZADD', KEYS[3], 0, ARGV[1])
return { counted, ticket }
