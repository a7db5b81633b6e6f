-- push-presence-hold: this API instance has a live subscription for each given device of one
-- user, until now + ttl by Redis's clock. The first hold of a device and every renewal of it; a
-- member already there is moved forward. Members whose time is up (a crashed instance's) go.
-- KEYS[1]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- ARGV[1]  ttlMs
-- ARGV[2..] members, `device\ninstance`
-- Returns the time the holds lapse (unix ms).
local ttl = tonumber(ARGV[1])
local now = now_ms()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local entries = {}
for i = 2, #ARGV do
  entries[#entries + 1] = now + ttl
  entries[#entries + 1] = ARGV[i]
end
if #entries > 0 then redis.call('ZADD', KEYS[1], unpack(entries)) end
-- The key lives as long as its longest hold: another instance's may run longer than this one's.
if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return now + ttl
