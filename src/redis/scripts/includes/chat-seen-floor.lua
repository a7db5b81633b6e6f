-- chat-seen-floor (include): the 'seen' retention mode's trim, for every script that moves or
-- removes a reader's cursor (chat-fetch, chat-mark-seen, chat-leave).
--
-- trim_seen(k, now, lifetimeMs): k holds the chat's keys members, messages, meta, cursors and
-- active. In the 'seen' mode (the default), deletes the entries every member and device has
-- taken: those at or below the lowest seen-id and the lowest cursor of a device still alive.
-- A device silent for its lifetime is forgotten (its user's list says so at once): from the
-- lowest cursor up, such a device's cursor goes, marked in `active` below zero as chat-send.lua
-- marks it, and holds nothing. now: unix ms, or nil to read the clock only when trimming.
local function trim_seen(k, now, lifetimeMs)
  if (redis.call('HGET', k.meta, 'mode') or 'seen') ~= 'seen' then return end
  now = now or now_ms()
  local floor = tonumber(redis.call('ZRANGE', k.members, 0, 0, 'WITHSCORES')[2])
  for _ = 1, redis.call('ZCARD', k.cursors) do
    local lowest = redis.call('ZRANGE', k.cursors, 0, 0, 'WITHSCORES')
    local used = tonumber(redis.call('ZSCORE', k.active, lowest[1]) or '0')
    if used >= now - lifetimeMs then
      floor = math.min(floor, tonumber(lowest[2]))
      break
    end
    redis.call('ZREM', k.cursors, lowest[1])
    redis.call('ZADD', k.active, -now, lowest[1])
  end
  redis.call('ZREMRANGEBYSCORE', k.messages, '-inf', floor)
end
