-- row-cache-claim: the refresher's first step (the book's cache_rows, for a batch and for any
-- number of refreshers). Takes up to ARGV[1] due rows and leases each at once: it is due again
-- after min(its delay, ARGV[2]), so another refresher never takes the same due time, and a
-- refresher that dies (or cannot store) between claim and store holds the row for one lease,
-- not a whole delay; row-cache-store moves a row it stores to a full delay out. Each claim gets
-- a fresh token that row-cache-store checks. Rows without a positive delay are dropped from the
-- schedule (the book does the same; row-cache-schedule never leaves one, so this only mends a
-- hand-edited schedule).
-- When a row is due, rows due within ARGV[3] ms are taken with it (a row not yet due only if that
-- is at most a quarter of its delay early), so rows scheduled a few ms apart are read in one query,
-- and, stored together, stay together: without it they kept their first spread, one query each.
-- KEYS[1]  schedule (zset id -> due ms)   KEYS[2]  delay (zset id -> ms)   KEYS[3]  ids (zset)
-- KEYS[4]  claims (counter)
-- ARGV[1]  most rows to claim   ARGV[2]  lease in ms (a few database timeouts)
-- ARGV[3]  how far ahead, in ms, a row may be taken with the due ones
-- Returns {ms until the next due row (0: more are due now, -1: none scheduled),
-- id1, token1, id2, token2, ...}.
local now = now_ms()
local lease = tonumber(ARGV[2])
local ahead = tonumber(ARGV[3])
local claimed = { 0 }

-- Rows are gathered only around a row that is due: a claim made early (a refresher's sleep is
-- capped) would take the first rows early and leave the rest of a group for another query.
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if not first[2] then return { -1 } end
if tonumber(first[2]) > now then return { tonumber(first[2]) - now } end

local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now + ahead, 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[1]))
for i = 1, #due, 2 do
  local id, early = due[i], tonumber(due[i + 1]) - now
  local delay = tonumber(redis.call('ZSCORE', KEYS[2], id) or 0)
  if delay > 0 and early > delay / 4 then
    -- Not due yet, and taking it now would refresh it too often: it waits for its time.
  elseif delay > 0 then
    redis.call('ZADD', KEYS[1], now + math.min(delay, lease), id)
    claimed[#claimed + 1] = id
    claimed[#claimed + 1] = redis.call('INCR', KEYS[4])
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
  end
end

first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
claimed[1] = first[2] and math.max(tonumber(first[2]) - now, 0) or -1
return claimed
