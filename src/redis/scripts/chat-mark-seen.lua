-- chat-mark-seen: moves a reader's cursor forward to an entry id (never back): the member's
-- seen-id, or one device's cursor, which the seen-id follows (a member's read state is their
-- furthest device). In the 'seen' retention mode, the entries every member and device has now
-- taken are deleted. With chat-fetch in read-only mode this lets a client acknowledge only what
-- it has shown (at-least-once delivery).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, open, created, mode)
-- KEYS[4]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[5]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  user
-- ARGV[2]  entry id
-- ARGV[3]  device, or '' for none
-- ARGV[4]  the chat's change channel; ARGV[5] the chat id
-- ARGV[6]  the device lifetime, in milliseconds (cursors of devices silent longer hold nothing)
-- Returns 1 when the cursor moved, 0 when it already was at or past the id.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the user is not
-- a member; E_NO_SUCH_MESSAGE when the id is past the chat's latest entry; E_DEVICE_MUST_FETCH
-- when this chat dropped the device's cursor as forgotten (`active` holds its mark below zero)
-- though its user's list let it through a moment before forgetting it: only its next fetch may
-- start it again, and tell it so (chat-fetch.lua).
--- @include "chat-seen-floor"
local user, device = ARGV[1], ARGV[3]
local now = now_ms()
local seenText = redis.call('ZSCORE', KEYS[1], user)
if not seenText then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
local seen = tonumber(seenText)
local target = tonumber(ARGV[2])
local latest = tonumber(redis.call('HGET', KEYS[3], 'last') or '0')
if target > latest then
  return redis.error_reply('E_NO_SUCH_MESSAGE messageId is past the latest message of the chat (' .. latest .. ')')
end
if device ~= '' then
  local field = user .. '\n' .. device
  local cursor = redis.call('ZSCORE', KEYS[4], field)
  if cursor and target <= tonumber(cursor) then
    return 0
  end
  -- A cursor made here would wipe the mark, and the device's next fetch would resume from it
  -- without deviceForgotten, past whatever was trimmed meanwhile: a silent gap.
  if not cursor and tonumber(redis.call('ZSCORE', KEYS[5], field) or '0') < 0 then
    return redis.error_reply('E_DEVICE_MUST_FETCH device was forgotten in this chat: fetch with it first')
  end
  redis.call('ZADD', KEYS[4], target, field)
  redis.call('ZADD', KEYS[5], now, field)
elseif target <= seen then
  return 0
end
if target > seen then
  redis.call('ZADD', KEYS[1], 'XX', target, user)
  redis.call(NOTIFY, ARGV[4], cjson.encode({ chatId = ARGV[5], change = 'READ', user = user, messageId = target }))
end
trim_seen({ members = KEYS[1], messages = KEYS[2], meta = KEYS[3], cursors = KEYS[4], active = KEYS[5] }, now,
  tonumber(ARGV[6]))
return 1
