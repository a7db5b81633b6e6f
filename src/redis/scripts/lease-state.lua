-- lease-state: what a lock or semaphore looks like now, by the server's clock, without changing
-- anything: holders with time left, how many callers wait, the last limit and fencing token.
-- KEYS[1]  holders (zset lease id -> expiry, unix ms)
-- KEYS[2]  leases (hash lease id -> "fencingToken ttlMs owner")
-- KEYS[3]  queue expiry (zset waiting id -> when its place lapses, unix ms)
-- KEYS[4]  state (hash: fence, ticket, limit)
-- KEYS[5]  solo (string "id fencingToken expiresAt ttlMs owner", expiring with the lease)
-- ARGV[1]  most holders to list
-- Returns {limit or false, last fencing token or false, waiting, now, fence1, expiresAt1, owner1, ...}
-- with holders in expiry order.
--- @include "lease-solo"
local now = now_ms()
local state = redis.call('HMGET', KEYS[4], 'limit', 'fence')
local reply = {
  state[1] and tonumber(state[1]) or false,
  state[2] and tonumber(state[2]) or false,
  redis.call('ZCOUNT', KEYS[3], '(' .. now, '+inf'),
  now,
}
local most = tonumber(ARGV[1])
-- A solo holder is the only one: holders is empty then.
local solo = most > 0 and redis.call('GET', KEYS[5])
if solo then
  local _, fence, expiresAt, _, owner = solo_decode(solo)
  if tonumber(expiresAt) > now then
    reply[5], reply[6], reply[7] = tonumber(fence), tonumber(expiresAt), owner
  end
  return reply
end
local holders = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, most)
for i = 1, #holders, 2 do
  local lease = redis.call('HGET', KEYS[2], holders[i])
  if lease then
    local fence, _, owner = string.match(lease, '^(%d+) (%d+) (.*)$')
    reply[#reply + 1] = tonumber(fence)
    reply[#reply + 1] = tonumber(holders[i + 1])
    reply[#reply + 1] = owner
  end
end
return reply
