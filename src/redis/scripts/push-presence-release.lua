-- push-presence-release: this API instance no longer tells the given devices of one user over
-- a socket. Other instances' members stay; lapsed ones go, and the key with its last member.
-- KEYS[1]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- ARGV[1..] members, `device\ninstance`
-- Returns the number of the given members that were there.
local removed = 0
if #ARGV > 0 then removed = redis.call('ZREM', KEYS[1], unpack(ARGV)) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms())
return removed
