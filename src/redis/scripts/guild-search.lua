-- guild-search: members of a guild whose folded name starts with a prefix, in order, read with
-- one lexicographic range, and the guild's member count. Unlike the book's marker insertion it
-- writes nothing, so it needs no WATCH, no retries and no cleanup, and never conflicts with joins
-- and leaves.
-- KEYS[1]  the guild's members (zset, score 0, entries `folded` or `folded\0original`)
-- ARGV[1]  the caller's entry, checked for membership; '' to skip the check (service callers)
-- ARGV[2]  the folded prefix, taken literally: the range syntax is added here
-- ARGV[3]  most entries to return
-- ARGV[4]  start after this entry instead of at the prefix ('' for none); the caller passes
--          one that sorts after the prefix
-- Returns {member count, entry, ...}, entries in byte order. Entries never hold the byte 0xFF
-- (it is not in UTF-8), so every entry that starts with the prefix lies between `[prefix` and
-- `(prefix\255`.
if ARGV[1] ~= '' and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return redis.error_reply('E_NOT_GUILD_MEMBER only members of a guild may search it')
end
local from = ARGV[4] == '' and '[' .. ARGV[2] or '(' .. ARGV[4]
local page = redis.call('ZRANGEBYLEX', KEYS[1], from, '(' .. ARGV[2] .. '\255', 'LIMIT', 0, tonumber(ARGV[3]))
table.insert(page, 1, redis.call('ZCARD', KEYS[1]))
return page
