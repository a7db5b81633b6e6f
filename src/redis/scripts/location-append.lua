-- location-append: appends one chunk of complete lines to an upload, and/or closes the upload,
-- in one step. The offset is in lines: a chunk from line `from` is stored only when the upload
-- holds exactly `from` lines, so a resent chunk is recognised (already stored) and a gap refused.
-- KEYS[1]  meta (hash: held bytes)   KEYS[2]  the upload (hash)   KEYS[3]  chunks (stream)
-- KEYS[4]  uploads (zset)            KEYS[5]  the upload's refused samples (list)
-- ARGV[1]  upload id   ARGV[2]  from (lines)   ARGV[3]  lines   ARGV[4]  bytes   ARGV[5]  data
-- ARGV[6]  most bytes held   ARGV[7]  largest upload   ARGV[8]  complete (1/0)   ARGV[9]  most uploads
-- ARGV[10] progress channel   ARGV[11] dataset   ARGV[12] seconds a record lives past its last append
-- ARGV[13] seconds a record is kept once the upload is counted in full
-- Returns {status, lines, chunks, complete}: status OK, STORED (it had these lines already) or
-- FULL (the dataset holds as many bytes as allowed: nothing stored, try again once aggregators
-- have taken some).
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('E_NO_DATASET no such dataset') end
local id, from, lines, size = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local complete = ARGV[8] == '1'
local idle, kept = tonumber(ARGV[12]), tonumber(ARGV[13])
local now = now_ms()
local state = redis.call('HMGET', KEYS[2], 'lines', 'bytes', 'chunks', 'complete', 'doneChunks')
local new = not state[1]
local stored, bytes, chunks = tonumber(state[1] or '0'), tonumber(state[2] or '0'), tonumber(state[3] or '0')
local closed = state[4] == '1'
-- Every check before anything is written: a refused call leaves no record behind.
if lines > 0 and from < stored then
  if from + lines <= stored then return {'STORED', stored, chunks, closed and 1 or 0} end
  return redis.error_reply('E_UPLOAD_OFFSET ' .. stored)
end
if from ~= stored then return redis.error_reply('E_UPLOAD_OFFSET ' .. stored) end
if closed then
  if lines == 0 then return {'STORED', stored, chunks, 1} end
  return redis.error_reply('E_UPLOAD_COMPLETE ' .. stored)
end
if lines > 0 then
  if bytes + size > tonumber(ARGV[7]) then return redis.error_reply('E_UPLOAD_TOO_LARGE ' .. ARGV[7]) end
  local held = tonumber(redis.call('HGET', KEYS[1], 'held') or '0')
  -- An empty dataset always takes one chunk, so a chunk larger than the bound cannot stall.
  if held > 0 and held + size > tonumber(ARGV[6]) then return {'FULL', stored, chunks, 0} end
end
if new then
  -- The uploads set is scored by when each record expires: those past it are gone already.
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[9]) then
    return redis.error_reply('E_TOO_MANY_UPLOADS ' .. ARGV[9])
  end
  redis.call('HSET', KEYS[2], 'lines', 0, 'bytes', 0, 'chunks', 0, 'doneChunks', 0, 'doneLines', 0,
    'refused', 0, 'complete', 0, 'created', now)
end
if lines > 0 then
  chunks = chunks + 1
  redis.call('XADD', KEYS[3], '*', 'u', id, 'n', chunks, 'l', from + 1, 'c', lines, 'b', size, 'd', ARGV[5])
  redis.call('HINCRBY', KEYS[1], 'held', size)
  redis.call('HSET', KEYS[2], 'lines', stored + lines, 'bytes', bytes + size, 'chunks', chunks)
  stored = stored + lines
end
-- A record lives `idle` seconds past its last append, and `kept` seconds once counted in full.
local ttl = idle
if complete then
  redis.call('HSET', KEYS[2], 'complete', 1, 'completedAt', now)
  closed = true
  if tonumber(redis.call('HGET', KEYS[2], 'doneChunks')) == chunks then ttl = kept end
end
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[5], ttl)
redis.call('ZADD', KEYS[4], now + ttl * 1000, id)
local done = tonumber(redis.call('HGET', KEYS[2], 'doneLines'))
redis.call(NOTIFY, ARGV[10], cjson.encode({ dataset = ARGV[11], upload = id, lines = stored, doneLines = done,
  complete = closed }))
return {'OK', stored, chunks, closed and 1 or 0}
