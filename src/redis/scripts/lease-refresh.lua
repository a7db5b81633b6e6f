-- lease-refresh: extends the slot held by `id` from now, by the server's clock. A lease whose
-- time is already up cannot be refreshed: its holder lost it and must stop.
-- KEYS[1]  holders (zset lease id -> expiry, unix ms)
-- KEYS[2]  leases (hash lease id -> "fencingToken ttlMs owner")
-- KEYS[3]  solo (string "id fencingToken expiresAt ttlMs owner", expiring with the lease)
-- ARGV[1]  id
-- ARGV[2]  new ttlMs, or 0 to keep the lease's own
-- Returns {fencingToken, expiresAt, ttlMs}, or nil when `id` holds no slot.
--- @include "lease-solo"
local id, newTtl = ARGV[1], tonumber(ARGV[2])
local now = now_ms()

-- A solo key is there only while its lease has time left; when it is, nobody else holds.
local solo = redis.call('GET', KEYS[3])
if solo then
  local soloId, fence, _, ttl, owner = solo_decode(solo)
  if soloId ~= id then return nil end
  if newTtl > 0 then ttl = newTtl else ttl = tonumber(ttl) end
  local expiresAt = now + ttl
  redis.call('SET', KEYS[3], solo_value(id, fence, expiresAt, ttl, owner), 'PXAT', expiresAt)
  return { tonumber(fence), expiresAt, ttl }
end

local expiresAt = redis.call('ZSCORE', KEYS[1], id)
if not expiresAt then return nil end
if tonumber(expiresAt) <= now then
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  return nil
end
local fence, ttl, owner = string.match(redis.call('HGET', KEYS[2], id), '^(%d+) (%d+) (.*)$')
if newTtl > 0 then ttl = newTtl else ttl = tonumber(ttl) end
redis.call('ZADD', KEYS[1], 'XX', now + ttl, id)
redis.call('HSET', KEYS[2], id, fence .. ' ' .. ttl .. ' ' .. owner)
for _, key in ipairs({ KEYS[1], KEYS[2] }) do
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
end
return { tonumber(fence), now + ttl, ttl }
