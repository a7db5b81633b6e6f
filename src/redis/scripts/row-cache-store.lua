-- row-cache-store: the refresher's last step. Stores what the database returned for claimed
-- rows, each only if the row is still scheduled and its claim is newer than the stored copy's (a
-- refresh in flight never brings back a row that was unscheduled, and a copy is never replaced
-- by one of an earlier claim; claims, not reads, are what is ordered, see docs/row-cache.md). A row it
-- stores is due again a full delay from now if its claim's lease is still running; one made due
-- sooner meanwhile (rescheduled, or its lease ran out) keeps that time. A stale store changes
-- nothing, its due time included. A row the database no longer has loses its copy. A copy is
-- written, and announced on its channel, only when its JSON text changed.
-- KEYS[1]  schedule (zset id -> due ms)   KEYS[2]  delay (zset id -> ms)   KEYS[3]  tokens (hash)
-- KEYS[4]  refreshed (hash)               KEYS[4 + i]  the copy of the i-th row (string)
-- ARGV[1]  channel prefix (the row id completes it)
-- ARGV[2 + 3(i-1) ..]  per row: id, claim token, JSON text ('' when the database has no such row)
-- Returns {ids whose copy changed}, in ARGV order.
local now = now_ms()
local changed = {}

for i = 1, #KEYS - 4 do
  local id, token, json = ARGV[3 * i - 1], tonumber(ARGV[3 * i]), ARGV[3 * i + 1]
  local delay = redis.call('ZSCORE', KEYS[2], id)
  if delay and token > (tonumber(redis.call('HGET', KEYS[3], id)) or 0) then
    if tonumber(redis.call('ZSCORE', KEYS[1], id) or 0) > now then
      redis.call('ZADD', KEYS[1], 'XX', now + tonumber(delay), id)
    end
    redis.call('HSET', KEYS[3], id, token)
    redis.call('HSET', KEYS[4], id, now)
    local copy = KEYS[4 + i]
    local differs
    if json == '' then
      differs = redis.call('DEL', copy) == 1
    else
      differs = redis.call('GET', copy) ~= json
      if differs then redis.call('SET', copy, json) end
    end
    if differs then
      changed[#changed + 1] = id
      redis.call(NOTIFY, ARGV[1] .. id, cjson.encode({ rowId = id, at = now, cached = json ~= '' }))
    end
  end
end
return changed
