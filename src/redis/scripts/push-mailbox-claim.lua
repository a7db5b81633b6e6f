-- push-mailbox-claim: the mailbox's push decision on the user's slot: while messages wait, the
-- devices with a target, no live subscription and still live, not yet pushed up to the latest
-- message. With 'claim', a device's push is claimed by a task (as push-chat-claim does).
-- KEYS[1]  push targets (hash device -> target JSON)
-- KEYS[2]  online (zset `device\ninstance` -> when the hold lapses, unix ms)
-- KEYS[3]  devices (zset device -> last fetch, unix ms)
-- KEYS[4]  mailbox (list of message JSON, oldest first)
-- KEYS[5]  mailbox ids (counter)
-- KEYS[6]  mailbox pushed (hash device -> `<message id pushed up to> <task id>`)
-- ARGV[1]  the device lifetime, in milliseconds
-- ARGV[2]  how long the pushed marks are kept after the last claim, in milliseconds
-- ARGV[3]  'check', or 'claim' for the device ARGV[4] up to the id ARGV[5] by the task ARGV[6]
-- Returns {latest id, waiting, device, target JSON, device, target JSON, ...}.
--- @include "push-online"
local waiting = redis.call('LLEN', KEYS[4])
local latest = tonumber(redis.call('GET', KEYS[5]) or '0')
local reply = { latest, waiting }
if waiting == 0 then
  return reply
end
local claim = ARGV[3] == 'claim'
local upTo = claim and tonumber(ARGV[5]) or latest
local now = now_ms()
local online = push_online(KEYS[2], now)
local since = now - tonumber(ARGV[1])
local targets = redis.call('HGETALL', KEYS[1])
for i = 1, #targets, 2 do
  local device, json = targets[i], targets[i + 1]
  local lastFetch = tonumber(redis.call('ZSCORE', KEYS[3], device) or '0')
  if lastFetch < since then
    redis.call('HDEL', KEYS[1], device)
  elseif (not claim or device == ARGV[4]) and not online[device] then
    local pushed, holder = string.match(redis.call('HGET', KEYS[6], device) or '0 ', '^(%d+) (.*)$')
    pushed = tonumber(pushed) or 0
    if pushed < upTo or (claim and pushed == upTo and holder == ARGV[6]) then
      if claim then
        redis.call('HSET', KEYS[6], device, upTo .. ' ' .. ARGV[6])
        redis.call('PEXPIRE', KEYS[6], ARGV[2])
      end
      reply[#reply + 1] = device
      reply[#reply + 1] = json
    end
  end
end
return reply
