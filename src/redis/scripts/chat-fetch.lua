-- chat-fetch: the entries of one chat after a reader's cursor, oldest first. The reader is a
-- member without a device (their cursor is their seen-id, as in the book's
-- fetch_pending_messages) or one device of theirs (a cursor of its own, made on its first fetch).
-- When told to advance, the cursor moves to the last entry returned and the member's seen-id (their
-- read state, which moves with their furthest device) follows; in the 'seen' retention mode the
-- entries every member and device has taken are deleted.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, open, created, gen, mode, keep, keepMs)
-- KEYS[4]  joined (hash member -> entry id after which they may read)
-- KEYS[5]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[6]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  user
-- ARGV[2]  most entries to return
-- ARGV[3]  '1' to advance, '0' to only read
-- ARGV[4]  device, or '' for none
-- ARGV[5]  '0' for a device the user knows: a cursor it lacks starts at the member's joining (the
--          chat is new to the device); '1' for a device new to the user: a cursor it lacks starts at
--          the member's seen-id; '2' for a forgotten device: its cursor starts again at the
--          member's seen-id, even one left from before it was forgotten
--          (or, for a known device whose cursor here went with its lifetime a moment after the
--          list let it through, as for a forgotten one: `active` holds a mark below zero)
-- ARGV[6]  the chat's change channel; ARGV[7] the chat id
-- ARGV[8]  the device lifetime, in milliseconds (cursors of devices silent longer hold nothing)
-- Returns {entries after these (-1 when the user is not a member), id of the oldest entry the
-- user may read (latest + 1 when none), 1 when the device's cursor was made now (2 when made
-- again for a known device whose cursor had gone), JSON, JSON, ...}.
--- @include "chat-seen-floor"
local user, device = ARGV[1], ARGV[4]
local seenText = redis.call('ZSCORE', KEYS[1], user)
if not seenText then
  return { -1 }
end
local seen = tonumber(seenText)
local joined = tonumber(redis.call('HGET', KEYS[4], user) or '0')
local now = now_ms()
local from, made, field = seen, 0, nil
if device ~= '' then
  field = user .. '\n' .. device
  local cursor = redis.call('ZSCORE', KEYS[5], field)
  if cursor and ARGV[5] ~= '2' then
    from = math.max(tonumber(cursor), joined)
  else
    made = 1
    from = ARGV[5] == '0' and joined or seen
    if ARGV[5] == '0' and tonumber(redis.call('ZSCORE', KEYS[6], field) or '0') < 0 then
      made, from = 2, seen
    end
    redis.call('ZADD', KEYS[5], from, field)
  end
  redis.call('ZADD', KEYS[6], now, field)
end

local found = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. from, '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local upTo = from
local reply = { 0, 0, made }
for i = 1, #found, 2 do
  reply[#reply + 1] = found[i]
  upTo = tonumber(found[i + 1])
end
reply[1] = redis.call('ZCOUNT', KEYS[2], '(' .. upTo, '+inf')
local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]
local start = oldest and tonumber(oldest) or tonumber(redis.call('HGET', KEYS[3], 'last') or '0') + 1
reply[2] = math.max(start, joined + 1)

if ARGV[3] == '1' and #found > 0 then
  if field then
    redis.call('ZADD', KEYS[5], 'XX', upTo, field)
  end
  if upTo > seen then
    redis.call('ZADD', KEYS[1], 'XX', upTo, user)
    redis.call(NOTIFY, ARGV[6], cjson.encode({ chatId = ARGV[7], change = 'READ', user = user, messageId = upTo }))
  end
  trim_seen({ members = KEYS[1], messages = KEYS[2], meta = KEYS[3], cursors = KEYS[5], active = KEYS[6] }, now,
    tonumber(ARGV[8]))
end
return reply
