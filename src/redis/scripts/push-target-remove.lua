-- push-target-remove: removes the push targets of devices; with a target to compare, only where
-- the device's target is still that one (the same endpoint or token, and the same `at` when
-- given), so a registration made since survives a late removal: one after a provider called the
-- target gone, or the one another user made when the phone changed hands.
-- KEYS[1]  the user's push targets (hash device -> JSON of the target with `at`)
-- ARGV[1]  the kind to compare, '' to remove whatever is there
-- ARGV[2]  the endpoint or token to compare
-- ARGV[3]  the `at` to compare (unix ms), '' for any
-- ARGV[4..] the devices
-- Returns the device and JSON of each target removed.
--- @include "push-target-of"
local removed = {}
for i = 4, #ARGV do
  local json = redis.call('HGET', KEYS[1], ARGV[i])
  local same = json ~= false
  if same and ARGV[1] ~= '' then
    local kind, address, at = push_target_of(json)
    same = kind == ARGV[1] and address == ARGV[2] and (ARGV[3] == '' or at == tonumber(ARGV[3]))
  end
  if same then
    redis.call('HDEL', KEYS[1], ARGV[i])
    removed[#removed + 1] = ARGV[i]
    removed[#removed + 1] = json
  end
end
return removed
