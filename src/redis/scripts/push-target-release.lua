-- push-target-release: forgets who registered a push target last, when it is still who is named:
-- a target removed from its device belongs to nobody, unless another device has taken it since.
-- KEYS[1]  the target's owner (string `user\ndevice`)
-- ARGV[1]  the owner expected
-- Returns 1 when it was forgotten, 0 when it named someone else or nobody.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
