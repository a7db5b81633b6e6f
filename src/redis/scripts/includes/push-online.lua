-- push-online (include): which of a user's devices some API instance is telling over a socket,
-- for every script that decides whether to push (a device told over a socket is not pushed).
--
-- push_online(key, now): key is the user's online zset (userKeys.online: member
-- `device\ninstance`, score when that instance's hold lapses, unix ms by Redis's clock). Returns a
-- set { [device] = true } of the devices with a member whose score is after now: a crashed
-- instance's members count until they lapse, and are left for the next hold to drop.
local function push_online(key, now)
  local online = {}
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', key, '(' .. now, '+inf')) do
    -- Device names never hold a newline (validName); an instance id never does either.
    local device = string.match(member, '^(.*)\n[^\n]*$')
    if device then online[device] = true end
  end
  return online
end
