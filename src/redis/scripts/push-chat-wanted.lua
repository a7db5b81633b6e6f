-- push-chat-wanted: what a device (or its person elsewhere) has of a chat now, and the push
-- claimed for it last: for diagnostics and tests (each attempt claims, push-chat-claim.lua).
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[3]  pushed (hash `user\ndevice` -> `<entry id pushed up to> <task id>`)
-- ARGV[1]  user; ARGV[2] device
-- Returns {the highest entry id the device or its person has (-1 when the user left the chat),
-- the entry id of the device's latest claimed push (0 for none)}.
local field = ARGV[1] .. '\n' .. ARGV[2]
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
local pushed = tonumber(string.match(redis.call('HGET', KEYS[3], field) or '', '^(%d+) ')) or 0
if not seen then
  return { -1, pushed }
end
return { math.max(tonumber(seen), tonumber(redis.call('ZSCORE', KEYS[2], field) or '0')), pushed }
