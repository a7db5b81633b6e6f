-- counter-delete: removes one counter at every precision, its samples and its name in the known
-- sets, in one atomic step (all of a counter's keys share its bucket's tag).
-- KEYS[2i-1]  known set (zset) of the counter's bucket, for precision i
-- KEYS[2i]    sample hash of the counter, for precision i
-- ARGV[1]     counter name
-- Returns 1 when the counter had samples or was known at some precision, else 0.
local found = 0
for i = 1, #KEYS, 2 do
  found = found + redis.call('ZREM', KEYS[i], ARGV[1])
  -- UNLINK frees a large hash off the main thread.
  found = found + redis.call('UNLINK', KEYS[i + 1])
end
if found > 0 then return 1 end
return 0
