-- push-online (include): the devices of one user with a live subscription on some API instance.
-- push_online(key, now) reads the user's online zset (`device\ninstance` -> when the hold lapses,
-- unix ms) and returns a set { [device] = true } of devices with a hold that has not lapsed.
local function push_online(key, now)
  local online = {}
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', key, '(' .. now, '+inf')) do
    online[string.match(member, '^(.-)\n') or member] = true
  end
  return online
end
