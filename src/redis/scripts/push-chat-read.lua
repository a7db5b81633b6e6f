-- push-chat-read: after a person read a chat on one device, their other devices that were pushed
-- for entries they have not pulled since; each is due a badge-only update (its mark goes, so one
-- reading sends one update).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[3]  pushed (hash `user\ndevice` -> `<entry id pushed up to> <task id>`)
-- KEYS[4]  meta (hash: last, ...)
-- ARGV[1]  user; ARGV[2..] devices
-- Returns {the chat's latest entry id, device, unread, device, unread, ...}.
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[4], 'last') or '0')
if not seen then
  return { last }
end
local reply = { last }
for i = 2, #ARGV do
  local field = ARGV[1] .. '\n' .. ARGV[i]
  local pushed = tonumber(string.match(redis.call('HGET', KEYS[3], field) or '', '^(%d+) '))
  local cursor = tonumber(redis.call('ZSCORE', KEYS[2], field) or '0')
  if pushed and pushed > cursor then
    redis.call('HDEL', KEYS[3], field)
    reply[#reply + 1] = ARGV[i]
    reply[#reply + 1] = math.max(0, last - math.max(tonumber(seen), cursor))
  end
end
return reply
