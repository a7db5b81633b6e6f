-- location-prune-consumers: removes from a dataset's consumer group the consumers that hold no
-- chunk and have been idle for at least ARGV[2] ms: each crashed or killed aggregator leaves one,
-- and a deployment that restarts often would collect thousands. One atomic step, so a consumer
-- that takes a chunk cannot do so between the check and the removal (XGROUP DELCONSUMER drops
-- what a consumer holds: one holding anything is never removed). A live consumer removed while
-- it had nothing in hand is made again by its next XREADGROUP or XAUTOCLAIM that gets a chunk
-- (since Redis 7.2 by any such read, even one that gets nothing).
-- KEYS[1]  chunks (stream)
-- ARGV[1]  group   ARGV[2]  idle ms   ARGV[3]  a consumer never removed (the caller's own)
-- ARGV[4]  most consumers removed in one call
-- Returns the names removed.
local removed = {}
if redis.call('EXISTS', KEYS[1]) == 0 then return removed end
local consumers = redis.pcall('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])
-- No such group (a dataset being created): nothing to remove.
if consumers.err then return removed end
local idle, most = tonumber(ARGV[2]), tonumber(ARGV[4])
for _, fields in ipairs(consumers) do
  local consumer = {}
  for i = 1, #fields, 2 do consumer[fields[i]] = fields[i + 1] end
  if consumer.pending == 0 and consumer.idle >= idle and consumer.name ~= ARGV[3] then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], consumer.name)
    removed[#removed + 1] = consumer.name
    if #removed >= most then break end
  end
end
return removed
