-- push-send-check: before each attempt to deliver a push, the device's target as it is now and
-- whether the device has a live subscription (then its socket told it, and no push is needed);
-- for the mailbox, also whether a message up to the push's id still waits, and the latest push
-- claimed for it.
-- KEYS[1]  push targets (hash device -> target JSON)
-- KEYS[2]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- KEYS[3]  mailbox (list of message JSON, oldest first)
-- KEYS[4]  mailbox pushed (hash device -> `<message id pushed up to> <task id>`)
-- ARGV[1]  device
-- Returns {target JSON or '', 1 when online else 0, messages waiting, the oldest one's id or 0,
-- the mailbox push claimed last for the device or 0}.
--- @include "push-online"
local online = push_online(KEYS[2], now_ms())
local oldest = redis.call('LINDEX', KEYS[3], 0)
return {
  redis.call('HGET', KEYS[1], ARGV[1]) or '',
  online[ARGV[1]] and 1 or 0,
  redis.call('LLEN', KEYS[3]),
  oldest and cjson.decode(oldest).id or 0,
  tonumber(string.match(redis.call('HGET', KEYS[4], ARGV[1]) or '', '^(%d+) ')) or 0,
}
