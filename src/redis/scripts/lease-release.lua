-- lease-release: forgets `id` as a holder and as a waiter, then tells waiters, through one
-- PUBLISH, which of them may now take a slot. Used both to release a slot and to abandon an
-- acquire (a caller that stopped waiting, or whose grant's reply was lost). A lease whose time
-- is already up is removed but reported as not held: its holder had lost it.
-- KEYS[1]  holders (zset lease id -> expiry, unix ms)
-- KEYS[2]  leases (hash lease id -> "fencingToken ttlMs owner")
-- KEYS[3]  queue (zset waiting id -> ticket)
-- KEYS[4]  queue expiry (zset waiting id -> when its place lapses, unix ms)
-- KEYS[5]  state (hash: fence, ticket, limit)
-- KEYS[6]  solo (string "id fencingToken expiresAt ttlMs owner", expiring with the lease)
-- ARGV[1]  id
-- ARGV[2]  channel to publish on
-- ARGV[3]  the lock's or semaphore's name, for the notification
-- Returns 1 when `id` held a slot until now, 2 when it was waiting, 0 otherwise.
--- @include "lease-solo"
local id, channel, name = ARGV[1], ARGV[2], ARGV[3]

-- A solo holder has nobody beside it and nobody queued (a second caller would have turned it
-- into a member of holders): its release frees the slot for anyone (upTo 0), and nothing else is
-- there to be forgotten. An expired solo key is gone already, and so reported as not held.
-- Another id's release writes nothing: a holder that stalled past its lease releases while the
-- next one holds, and a write there would still be replicated, logged and seen by WATCH.
local solo = redis.call('GET', KEYS[6])
if solo then
  if solo_decode(solo) ~= id then return 0 end
  redis.call('DEL', KEYS[6])
  redis.call(NOTIFY, channel, string.format('{"name":%s,"releasedAt":%d,"upTo":0}', cjson.encode(name), now_ms()))
  return 1
end

local now = now_ms()

local result = 0
local expiresAt = redis.call('ZSCORE', KEYS[1], id)
if expiresAt then
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  if tonumber(expiresAt) > now then result = 1 end
  -- A holder is not queued too: its grant took it out of the queue. With nobody queued (a zset
  -- goes with its last member) there are no lapsed places to drop and no tickets to name: the
  -- freed slot is news to anyone (upTo 0). It is free indeed, as the limit cannot change while
  -- anyone holds, so there were at most `limit` holders.
  if redis.call('EXISTS', KEYS[3]) == 0 then
    if result == 1 then
      redis.call(NOTIFY, channel, string.format('{"name":%s,"releasedAt":%d,"upTo":0}', cjson.encode(name), now))
    end
    return result
  end
elseif redis.call('ZREM', KEYS[3], id) == 1 then
  redis.call('ZREM', KEYS[4], id)
  result = 2
end
if result == 0 then return 0 end

-- Places that lapsed (their waiter died) must not be named below, or the live waiters behind
-- them would not hear of the free slot.
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for i = 1, #lapsed, 1000 do
  redis.call('ZREM', KEYS[3], unpack(lapsed, i, math.min(i + 999, #lapsed)))
end
if #lapsed > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now) end

-- Waiters with a ticket up to `upTo` may take a slot now; 0 when nobody is queued.
local limit = tonumber(redis.call('HGET', KEYS[5], 'limit')) or 1
local free = limit - redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
local queued = {}
if free > 0 then queued = redis.call('ZRANGE', KEYS[3], 0, free - 1, 'WITHSCORES') end
-- A released slot is news to anyone; a waiter leaving only to those queued behind it.
if free > 0 and (result == 1 or #queued > 0) then
  local upTo = #queued > 0 and tonumber(queued[#queued]) or 0
  redis.call(NOTIFY, channel, string.format('{"name":%s,"releasedAt":%d,"upTo":%d}', cjson.encode(name), now, upTo))
end
return result
