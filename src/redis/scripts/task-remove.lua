-- task-remove: forgets a finished task (COMPLETED, FAILED or CANCELLED) before the history bound
-- would: its record, arguments, result, error, progress and idempotency key.
-- KEYS[1]  records   KEYS[2]  arguments   KEYS[3]  results   KEYS[4]  errors   KEYS[5]  progress
-- KEYS[6]  finished (zset)   KEYS[7]  idempotency keys
-- ARGV[1]  task number
-- Returns 1 when removed, 0 when there is no such task; E_TASK_NOT_FINISHED while it may still run.
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return 0 end
local record = cjson.decode(raw)
if record.state ~= 'COMPLETED' and record.state ~= 'FAILED' and record.state ~= 'CANCELLED' then
  return redis.error_reply('E_TASK_NOT_FINISHED the task is ' .. record.state .. '; cancel it first or wait for it to finish')
end
if record.idempotencyKey then redis.call('HDEL', KEYS[7], record.idempotencyKey) end
for hash = 1, 5 do redis.call('HDEL', KEYS[hash], ARGV[1]) end
redis.call('ZREM', KEYS[6], ARGV[1])
return 1
