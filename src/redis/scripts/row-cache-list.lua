-- row-cache-list: one page of the scheduled rows, in byte order of their ids.
-- KEYS[1]  ids (zset, score 0)   KEYS[2]  delay (zset)   KEYS[3]  schedule (zset)   KEYS[4]  refreshed (hash)
-- ARGV[1]  list ids after this one ('' from the start)   ARGV[2]  page size
-- Returns {id, delay ms, next due ms, last refresh ms or false, ...}.
local from = ARGV[1] == '' and '-' or '(' .. ARGV[1]
local page = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], from, '+', 'BYLEX', 'LIMIT', 0, tonumber(ARGV[2]))) do
  page[#page + 1] = id
  page[#page + 1] = redis.call('ZSCORE', KEYS[2], id)
  page[#page + 1] = redis.call('ZSCORE', KEYS[3], id)
  page[#page + 1] = redis.call('HGET', KEYS[4], id)
end
return page
