-- chat-leave: removes a member, who leaves or whom an owner removes: with their seen-id go their
-- devices' cursors, their role and their typing notice, so they receive nothing more and read
-- nothing past this point. When the last member leaves, every key of the chat is deleted; in the
-- 'seen' retention mode, the entries every remaining member and device has taken are deleted
-- (the book's leave_chat); a device silent past its lifetime loses its cursor and holds nothing.
-- The chat's change channel is told LEFT, the last member's too: it is what ends their
-- chatChanged subscription.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, open, created, gen, mode, keep, keepMs)
-- KEYS[4]  sent (hash of remembered clientMessageIds)
-- KEYS[5]  sent expiry (zset)
-- KEYS[6]  joined (hash)
-- KEYS[7]  roles (hash)
-- KEYS[8]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[9]  active (zset `user\ndevice` -> last fetch)
-- KEYS[10] typing (zset)
-- KEYS[11] typing told (zset)
-- ARGV[1]  the member who goes
-- ARGV[2]  who removes them: '' when they leave of their own accord
-- ARGV[3]  '1' when the remover may remove anyone (the service role), '0' when only an owner may
-- ARGV[4]  the chat's change channel; ARGV[5] the chat id
-- ARGV[6]  the device lifetime, in milliseconds (cursors of devices silent longer hold nothing)
-- Returns 1 when the member went, 0 when they were not a member (or the chat does not exist).
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the remover is not a member (and not the
-- service) or the chat does not exist; E_NOT_CHAT_OWNER when the remover is a member but no owner.
--- @include "chat-seen-floor"
local user, remover = ARGV[1], ARGV[2]
if remover ~= '' then
  if redis.call('EXISTS', KEYS[3]) == 0 then
    return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
  end
  if ARGV[3] ~= '1' then
    if not redis.call('ZSCORE', KEYS[1], remover) then
      return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
    end
    if redis.call('HGET', KEYS[7], remover) ~= 'owner' then
      return redis.error_reply('E_NOT_CHAT_OWNER only an owner of the chat may remove members')
    end
  end
end
if redis.call('ZREM', KEYS[1], user) == 0 then
  return 0
end
local left = cjson.encode({ chatId = ARGV[5], change = 'LEFT', user = user, messageId = cjson.null })
if redis.call('ZCARD', KEYS[1]) == 0 then
  redis.call('DEL', unpack(KEYS))
  -- The last member's subscription ends with their LEFT too.
  redis.call(NOTIFY, ARGV[4], left)
  return 1
end
redis.call('HDEL', KEYS[6], user)
redis.call('HDEL', KEYS[7], user)
redis.call('ZREM', KEYS[10], user)
-- The member's devices, found by the `user\n` prefix (at most members x devices per user fields).
local prefix = user .. '\n'
local gone = {}
for _, field in ipairs(redis.call('ZRANGE', KEYS[8], 0, -1)) do
  if string.sub(field, 1, #prefix) == prefix then
    gone[#gone + 1] = field
  end
end
for _, field in ipairs(gone) do
  redis.call('ZREM', KEYS[8], field)
  redis.call('ZREM', KEYS[9], field)
end
trim_seen({ members = KEYS[1], messages = KEYS[2], meta = KEYS[3], cursors = KEYS[8], active = KEYS[9] }, nil,
  tonumber(ARGV[6]))
redis.call(NOTIFY, ARGV[4], left)
return 1
