-- counter-clean: trims the sample hashes of some counters of one precision to the newest
-- ARGV[2] slices, none older than ARGV[2] slices before the current one, and drops a counter
-- from the known set once it has no samples left. Being one atomic step it cannot race an
-- update (the book needed WATCH for this): either the update's sample is there and the counter
-- stays, or the update runs after and records the counter again.
-- KEYS[1]     known set (zset) of one bucket, for this precision
-- KEYS[1+i]   sample hash of counter i (same bucket, so same hash tag)
-- ARGV[1]     precision, in seconds
-- ARGV[2]     how many samples to keep
-- ARGV[2+i]   name of counter i
-- Returns {samples removed, counters removed from the known set}.
local precision = tonumber(ARGV[1])
local keep = tonumber(ARGV[2])
local now = tonumber(redis.call('TIME')[1])
-- The window is the current slice and the keep - 1 slices before it.
local oldest = (math.floor(now / precision) - keep + 1) * precision

local removedSamples, removedCounters = 0, 0
for i = 2, #KEYS do
  local fields = redis.call('HKEYS', KEYS[i])
  local slices = {}
  for j = 1, #fields do
    -- A field that is not a number cannot be a slice; it sorts first and is removed.
    slices[j] = { tonumber(fields[j]) or -1, fields[j] }
  end
  table.sort(slices, function(a, b) return a[1] < b[1] end)

  local excess = #slices - keep
  local doomed = {}
  for j = 1, #slices do
    if j > excess and slices[j][1] >= oldest then break end
    doomed[#doomed + 1] = slices[j][2]
  end
  -- HDEL in chunks: unpack() of a very long list would overflow Lua's stack.
  for j = 1, #doomed, 500 do
    redis.call('HDEL', KEYS[i], unpack(doomed, j, math.min(j + 499, #doomed)))
  end
  removedSamples = removedSamples + #doomed

  if #doomed == #slices then
    removedCounters = removedCounters + redis.call('ZREM', KEYS[1], ARGV[i + 1])
  end
end
return { removedSamples, removedCounters }
