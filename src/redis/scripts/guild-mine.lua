-- guild-mine: one page of the guilds a user is counted in, in byte order of their names. These
-- include every guild the user is in, and, after a join or leave cut short, perhaps one they are
-- not: the caller checks each against the guild itself (guild-info).
-- KEYS[1]  the user's guilds (zset from guild name to ticket)
-- KEYS[2]  the user's guild names (zset, score 0)
-- ARGV[1]  names after this one ('' from the start)   ARGV[2]  most names to return
-- Returns {1, name, ...}, or {0} when the name index is not built yet (see guild-reindex).
if redis.call('ZCARD', KEYS[2]) ~= redis.call('ZCARD', KEYS[1]) then return { 0 } end
local from = ARGV[1] == '' and '-' or '(' .. ARGV[1]
local page = redis.call('ZRANGE', KEYS[2], from, '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))
table.insert(page, 1, 1)
return page
