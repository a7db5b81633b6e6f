-- push-chat-claim: which devices are owed a push up to a chat's latest entry, and the claim of
-- one. A device is owed one when neither it (its cursor) nor its person on any device (the
-- seen-id) has that entry, and no other task claimed a push up to it. A decision asks ('check')
-- and makes a push task per device owed; the task claims ('claim', with its id) before every
-- attempt, so however many decisions, instances and retries made tasks for the same entries,
-- one task holds the claim and only it sends.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[3]  pushed (hash `user\ndevice` -> `<entry id pushed up to> <task id>`)
-- ARGV[1]  the latest entry id the push is about
-- ARGV[2]  how long the pushed marks are kept after the last claim, in milliseconds
-- ARGV[3]  'check', or 'claim'
-- ARGV[4]  the claiming task's id ('' for a check)
-- ARGV[5..] user, device, user, device, ...
-- Returns {user, device, unread, ...} for the devices owed (and, with 'claim', claimed by this
-- task); unread is the number of entries after what the device has.
local last = tonumber(ARGV[1])
local claim = ARGV[3] == 'claim'
local reply = {}
for i = 5, #ARGV, 2 do
  local user, device = ARGV[i], ARGV[i + 1]
  local field = user .. '\n' .. device
  local seen = redis.call('ZSCORE', KEYS[1], user)
  if seen then
    local has = math.max(tonumber(seen), tonumber(redis.call('ZSCORE', KEYS[2], field) or '0'))
    local mark = redis.call('HGET', KEYS[3], field) or '0 '
    local pushed, holder = string.match(mark, '^(%d+) (.*)$')
    pushed = tonumber(pushed) or 0
    local ours = claim and pushed == last and holder == ARGV[4]
    if has < last and (pushed < last or ours) then
      if claim then
        redis.call('HSET', KEYS[3], field, last .. ' ' .. ARGV[4])
        redis.call('PEXPIRE', KEYS[3], ARGV[2])
      end
      reply[#reply + 1] = user
      reply[#reply + 1] = device
      reply[#reply + 1] = last - has
    elseif pushed > 0 and has >= pushed then
      -- Caught up since its last push: the mark is needed no longer.
      redis.call('HDEL', KEYS[3], field)
    end
  end
end
return reply
