-- row-cache-store: the refresher's last step. Stores what the database returned for claimed
-- rows, each only if the row is still scheduled and its claim is newer than the copy's (a slow
-- refresher never overwrites a newer copy, nor brings back a row that was unscheduled). A row
-- the database no longer has loses its copy. A copy is written, and announced on its channel,
-- only when its JSON text changed.
-- KEYS[1]  delay (zset id -> ms)   KEYS[2]  tokens (hash)   KEYS[3]  refreshed (hash)
-- KEYS[3 + i]  the copy of the i-th row (string)
-- ARGV[1]  channel prefix (the row id completes it)
-- ARGV[2 + 3(i-1) ..]  per row: id, claim token, JSON text ('' when the database has no such row)
-- Returns {ids whose copy changed}, in ARGV order.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local changed = {}

for i = 1, #KEYS - 3 do
  local id, token, json = ARGV[3 * i - 1], tonumber(ARGV[3 * i]), ARGV[3 * i + 1]
  if redis.call('ZSCORE', KEYS[1], id) and token > (tonumber(redis.call('HGET', KEYS[2], id)) or 0) then
    redis.call('HSET', KEYS[2], id, token)
    redis.call('HSET', KEYS[3], id, now)
    local copy = KEYS[3 + i]
    local differs
    if json == '' then
      differs = redis.call('DEL', copy) == 1
    else
      differs = redis.call('GET', copy) ~= json
      if differs then redis.call('SET', copy, json) end
    end
    if differs then
      changed[#changed + 1] = id
      redis.call('PUBLISH', ARGV[1] .. id, cjson.encode({ rowId = id, at = now, cached = json ~= '' }))
    end
  end
end
return changed
