-- location-commit: adds one chunk's counts and marks the chunk done, in one step: either both
-- happen or neither, so a worker killed at any moment, or two workers that both counted a chunk
-- (one of them past its claim time), count each line exactly once. XACK says whether the chunk
-- was still pending; only the first commit of a chunk finds it so. Counts are added (ZINCRBY,
-- HINCRBY), never set: a day spread over files and workers sums up (the book's ZADD kept only the
-- last flush).
-- KEYS[1]  chunks (stream)   KEYS[2]  meta (hash)   KEYS[3]  the upload (hash)
-- KEYS[4]  its refused samples (list)   KEYS[5]  days (zset)   KEYS[6]  visits (hash)
-- KEYS[7]  unknown visits (hash)   KEYS[8]  uploads (zset by when each record expires)
-- KEYS[9..] one zset per country, region or city level touched
-- ARGV[1]  entry id   ARGV[2]  group   ARGV[3]  bytes   ARGV[4]  lines   ARGV[5]  refused
-- ARGV[6]  most samples   ARGV[7]  upload channel   ARGV[8]  totals channel   ARGV[9]  upload id
-- ARGV[10] dataset   ARGV[11] sample count   ARGV[12] seconds a counted upload's record is kept
-- then the samples, a day count, (day, day number, visits, unknown) per day, and
-- (key index, member, visits) triples to the end.
-- Returns 1 when counted, 2 when counted and that was the upload's last chunk, 0 when the chunk
-- had been counted already (nothing changed).
if redis.call('XACK', KEYS[1], ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('XDEL', KEYS[1], ARGV[1])
redis.call('HINCRBY', KEYS[2], 'held', -tonumber(ARGV[3]))
local at = 13
local samples = tonumber(ARGV[11])
local progress = redis.call('EXISTS', KEYS[3]) == 1
if progress then
  redis.call('HINCRBY', KEYS[3], 'doneChunks', 1)
  redis.call('HINCRBY', KEYS[3], 'doneLines', ARGV[4])
  redis.call('HINCRBY', KEYS[3], 'refused', ARGV[5])
  local room = tonumber(ARGV[6]) - redis.call('LLEN', KEYS[4])
  for i = 1, math.min(samples, room) do redis.call('RPUSH', KEYS[4], ARGV[at + i - 1]) end
  -- The samples go with the record.
  if samples > 0 and room > 0 then redis.call('EXPIRE', KEYS[4], math.max(redis.call('TTL', KEYS[3]), 1)) end
end
at = at + samples
local days = tonumber(ARGV[at])
at = at + 1
local changed = {}
local finished = false
for _ = 1, days do
  local day = ARGV[at]
  redis.call('ZADD', KEYS[5], 'NX', ARGV[at + 1], day)
  redis.call('HINCRBY', KEYS[6], day, ARGV[at + 2])
  if ARGV[at + 3] ~= '0' then redis.call('HINCRBY', KEYS[7], day, ARGV[at + 3]) end
  changed[#changed + 1] = day
  at = at + 4
end
while at + 2 <= #ARGV do
  redis.call('ZINCRBY', KEYS[tonumber(ARGV[at])], ARGV[at + 2], ARGV[at + 1])
  at = at + 3
end
if progress then
  local state = redis.call('HMGET', KEYS[3], 'lines', 'doneLines', 'complete', 'chunks', 'doneChunks')
  if state[3] == '1' and state[4] == state[5] then
    -- Counted in full: the record stays a while for progress queries and resumes, then goes.
    redis.call('EXPIRE', KEYS[3], ARGV[12])
    redis.call('EXPIRE', KEYS[4], ARGV[12])
    redis.call('ZADD', KEYS[8], now_ms() + tonumber(ARGV[12]) * 1000, ARGV[9])
    finished = true
  end
  redis.call(NOTIFY, ARGV[7], cjson.encode({ dataset = ARGV[10], upload = ARGV[9], lines = tonumber(state[1]),
    doneLines = tonumber(state[2]), complete = state[3] == '1' }))
end
for _, day in ipairs(changed) do redis.call(NOTIFY, ARGV[8], cjson.encode({ dataset = ARGV[10], day = day })) end
return finished and 2 or 1
