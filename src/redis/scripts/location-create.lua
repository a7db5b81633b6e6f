-- location-create: creates a location dataset, its meta hash and its chunk stream with the
-- aggregators' consumer group.
-- KEYS[1]  meta (hash)   KEYS[2]  chunks (stream)
-- ARGV[1]  the consumer group's name
-- Returns 1 when created, 0 when it existed.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'created', now_ms(), 'held', 0)
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('XGROUP', 'CREATE', KEYS[2], ARGV[1], '0', 'MKSTREAM')
end
return 1
