-- lease-acquire: grants `id` a slot of a lock or counting semaphore, first come first served by
-- arrival at Redis (a ticket), never more than `limit` holders, all times from Redis's own clock.
-- A caller that may wait keeps a place in the queue for `holdMs` and must call again within it to
-- keep it; a caller that may not wait is never granted a slot ahead of someone already queued.
-- An idle name's grant is the solo key alone, which expires with the lease; a second holder or a
-- waiter turns it into a member of holders and leases first, so that the rest reads one shape.
-- KEYS[1]  holders (zset lease id -> expiry, unix ms by the server's clock)
-- KEYS[2]  leases (hash lease id -> "fencingToken ttlMs owner")
-- KEYS[3]  queue (zset waiting id -> ticket)
-- KEYS[4]  queue expiry (zset waiting id -> when its place lapses, unix ms)
-- KEYS[5]  state (hash: fence = last fencing token, ticket = last ticket, limit = last limit asked for);
--          kept forever so fencing tokens never repeat
-- KEYS[6]  solo (string "id fencingToken expiresAt ttlMs owner", expiring with the lease): the one
--          holder of a name nobody else holds or waits for; never there beside holders or queue
-- ARGV[1]  id (128-bit random, hex; the same for every call of one acquire)
-- ARGV[2]  limit (1 for a lock)
-- ARGV[3]  ttlMs: how long the slot is held unless refreshed
-- ARGV[4]  owner (the caller's name, shown in the state)
-- ARGV[5]  holdMs: how long a queue place is kept without a call; 0 = do not queue
-- ARGV[6]  most callers that may wait at once
-- Returns {1, fencingToken, expiresAt, ttlMs} when granted (`id` is new for each acquire and never
-- asked for again once granted),
-- or {0, retryAfterMs, ticket, ahead}: retryAfterMs until the first holder expires (-1 when the
-- slot is kept for someone queued earlier), ticket 0 when not queued, ahead = callers before it.
-- Errors, with nothing written: E_TOO_MANY_WAITERS when the queue is full; E_LIMIT_MISMATCH when
-- the name is in use (held or waited for) with another limit, which would make "at most limit"
-- and the queue order meaningless.
--- @include "lease-solo"
local id, owner = ARGV[1], ARGV[4]
local now = now_ms()

-- Idle name: no solo holder, no holders and no queue key (Redis deletes a zset with its last
-- member) mean nobody holds a slot and nobody waits, not even with a lapsed place. The caller is
-- then first in line, and no other limit is in use to disagree with: it becomes the solo holder.
-- (Numbers are turned to and from text here only where needed: in Lua that costs more than a call.)
if redis.call('EXISTS', KEYS[6], KEYS[1], KEYS[3]) == 0 then
  local fence = redis.call('HINCRBY', KEYS[5], 'fence', 1)
  if redis.call('HGET', KEYS[5], 'limit') ~= ARGV[2] then redis.call('HSET', KEYS[5], 'limit', ARGV[2]) end
  local ttl = tonumber(ARGV[3])
  local expiresAt = now + ttl
  local at = tostring(expiresAt)
  redis.call('SET', KEYS[6], solo_value(id, fence, at, ARGV[3], owner), 'PXAT', at)
  return { 1, fence, expiresAt, ttl }
end

local limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
local holdMs, maxWaiters = tonumber(ARGV[5]), tonumber(ARGV[6])

local solo = redis.call('GET', KEYS[6])
if solo then
  local soloId, soloFence, soloExpiresAt, soloTtl, soloOwner = solo_decode(solo)
  soloExpiresAt = tonumber(soloExpiresAt)
  local stored = tonumber(redis.call('HGET', KEYS[5], 'limit'))
  if stored and stored ~= limit then
    return redis.error_reply('E_LIMIT_MISMATCH this semaphore is in use with limit ' .. stored)
  end
  -- Refused without a trace: nothing about the solo holder has to change.
  if limit <= 1 and holdMs == 0 then return { 0, math.max(soloExpiresAt - now, 0), 0, 0 } end
  local left = math.max(soloExpiresAt - now, 1)
  redis.call('ZADD', KEYS[1], soloExpiresAt, soloId)
  redis.call('HSET', KEYS[2], soloId, soloFence .. ' ' .. soloTtl .. ' ' .. soloOwner)
  redis.call('PEXPIRE', KEYS[1], left)
  redis.call('PEXPIRE', KEYS[2], left)
  redis.call('DEL', KEYS[6])
end

-- Counted before expired holders are dropped: the drop below subtracts what it removed.
local holding = redis.call('ZCARD', KEYS[1])

-- Removes members whose time is up from `zset` (and their fields from `hash`), in chunks that
-- stay within Lua's limit on unpack. Returns how many it removed.
local function dropExpired(zset, other, otherIsHash)
  local expired = redis.call('ZRANGEBYSCORE', zset, '-inf', now)
  for i = 1, #expired, 1000 do
    local chunk = { unpack(expired, i, math.min(i + 999, #expired)) }
    if otherIsHash then redis.call('HDEL', other, unpack(chunk)) else redis.call('ZREM', other, unpack(chunk)) end
  end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', zset, '-inf', now) end
  return #expired
end

-- Key expiry follows the longest-lived member, so an abandoned name leaves nothing but its state.
local function keepFor(ms, ...)
  for _, key in ipairs({ ... }) do
    if redis.call('PTTL', key) < ms then redis.call('PEXPIRE', key, ms) end
  end
end

if holding > 0 then holding = holding - dropExpired(KEYS[1], KEYS[2], true) end
dropExpired(KEYS[4], KEYS[3], false)

local stored = tonumber(redis.call('HGET', KEYS[5], 'limit'))
if stored and stored ~= limit and (holding > 0 or redis.call('EXISTS', KEYS[3]) == 1) then
  return redis.error_reply('E_LIMIT_MISMATCH this semaphore is in use with limit ' .. stored)
end

local free = limit - holding
local ahead = redis.call('ZRANK', KEYS[3], id)
local queued = ahead ~= false
if not queued then ahead = redis.call('ZCARD', KEYS[3]) end

if ahead < free then
  local fence = redis.call('HINCRBY', KEYS[5], 'fence', 1)
  if stored ~= limit then redis.call('HSET', KEYS[5], 'limit', limit) end
  local expiresAt = now + ttl
  redis.call('ZADD', KEYS[1], expiresAt, id)
  redis.call('HSET', KEYS[2], id, fence .. ' ' .. ttl .. ' ' .. owner)
  if holding == 0 then
    -- Both keys were just created: no expiry to compare with.
    redis.call('PEXPIRE', KEYS[1], ttl)
    redis.call('PEXPIRE', KEYS[2], ttl)
  else
    keepFor(ttl, KEYS[1], KEYS[2])
  end
  if queued then
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZREM', KEYS[4], id)
  end
  return { 1, fence, expiresAt, ttl }
end

local retryAfter = -1
if free <= 0 then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  if first[2] then retryAfter = math.max(tonumber(first[2]) - now, 0) end
end

local ticket = 0
if holdMs > 0 then
  if queued then
    ticket = tonumber(redis.call('ZSCORE', KEYS[3], id))
  else
    if ahead >= maxWaiters then
      return redis.error_reply('E_TOO_MANY_WAITERS ' .. maxWaiters .. ' callers are already waiting')
    end
    ticket = redis.call('HINCRBY', KEYS[5], 'ticket', 1)
    if stored ~= limit then redis.call('HSET', KEYS[5], 'limit', limit) end
    redis.call('ZADD', KEYS[3], ticket, id)
  end
  redis.call('ZADD', KEYS[4], now + holdMs, id)
  keepFor(holdMs, KEYS[3], KEYS[4])
end
return { 0, retryAfter, ticket, ahead }
