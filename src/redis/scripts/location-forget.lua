-- location-forget: deletes every count of a dataset's oldest days before a date, a few days per
-- call, each day in one step: a chunk counted for that day meanwhile either comes before (and is
-- deleted with it) or after (and starts the day anew), never half-way, so no key is left behind.
-- The per-level keys are found from the day's countries and regions and named as keys.ts names
-- them (locationKeys); they share the dataset's hash tag, so on a cluster they are on this node.
-- KEYS[1]  days (zset)   KEYS[2]  visits (hash)   KEYS[3]  unknown visits (hash)
-- ARGV[1]  the dataset's key prefix (geo:{d:<dataset>})   ARGV[2]  the date's day number
-- ARGV[3]  most days this call   ARGV[4]  totals channel   ARGV[5]  dataset
-- Returns the days deleted, oldest first.
local days = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local prefix = ARGV[1]
for _, day in ipairs(days) do
  local countries = prefix .. ':c:' .. day
  for _, country in ipairs(redis.call('ZRANGE', countries, 0, -1)) do
    local regions = prefix .. ':r:' .. day .. ':' .. country
    for _, region in ipairs(redis.call('ZRANGE', regions, 0, -1)) do
      redis.call('UNLINK', prefix .. ':t:' .. day .. ':' .. country .. ':' .. region)
    end
    redis.call('UNLINK', regions)
  end
  redis.call('UNLINK', countries)
  redis.call('HDEL', KEYS[2], day)
  redis.call('HDEL', KEYS[3], day)
  redis.call('ZREM', KEYS[1], day)
  redis.call(NOTIFY, ARGV[4], cjson.encode({ dataset = ARGV[5], day = day }))
end
return days
