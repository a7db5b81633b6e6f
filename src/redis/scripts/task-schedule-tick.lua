-- task-schedule-tick: enqueues one run of a repeating task and moves its schedule to the
-- following tick, in one step, only if the schedule still expects the tick the caller saw and
-- it has come: of any number of schedulers calling for the same tick, exactly one enqueues.
-- When the queue is full the tick is skipped and counted as missed, and the schedule moves on.
-- KEYS[1]  definitions (hash name -> JSON)   KEYS[5]  task records (hash number -> JSON)
-- KEYS[2]  next runs (zset name -> unix ms)  KEYS[6]  task arguments (hash number -> JSON)
-- KEYS[3]  runs (hash name -> JSON)          KEYS[7]  the ready list of the schedule's priority
-- KEYS[4]  the queue's task counter          KEYS[8]  the workers' wake-up list
-- ARGV[1]  schedule name   ARGV[2]  the tick expected (unix ms)   ARGV[3]  the following tick
-- ARGV[4]  SHA-1 of the definition the caller computed the following tick from
-- ARGV[5]  ticks folded into this one (missed while no scheduler ran)
-- ARGV[6]  most runs of a task   ARGV[7]  most tasks the queue may hold
-- Returns {'ENQUEUED', task number, now}, {'FULL', 0, now}, {'EARLY', 0, now} (the tick has not
-- come), or {'STALE', 0, now} (another scheduler took the tick, or the schedule was replaced
-- or removed).
--- @include "task-add"
local now = now_ms()
local name, tick = ARGV[1], tonumber(ARGV[2])
local definition = redis.call('HGET', KEYS[1], name)
local expected = redis.call('ZSCORE', KEYS[2], name)
if not definition or not expected or tonumber(expected) ~= tick or redis.sha1hex(definition) ~= ARGV[4] then
  return { 'STALE', 0, now }
end
if now < tick then return { 'EARLY', 0, now } end

local raw = redis.call('HGET', KEYS[3], name)
local runs = raw and cjson.decode(raw) or { missed = 0 }
runs.missed = runs.missed + tonumber(ARGV[5])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), name)
-- task-schedule-set never moves the schedule back to a tick this run stood for: this one, or one
-- folded into it (all before now).
runs.lastTick = now
if redis.call('HLEN', KEYS[5]) >= tonumber(ARGV[7]) then
  runs.missed = runs.missed + 1
  redis.call('HSET', KEYS[3], name, cjson.encode(runs))
  return { 'FULL', 0, now }
end

-- Recorded as task-enqueue.lua records a task without delay, except that runAt is the tick it
-- was scheduled for.
local schedule = cjson.decode(definition)
local number = task_add({ counter = KEYS[4], records = KEYS[5], args = KEYS[6], ready = KEYS[7] }, {
  name = schedule.task, priority = schedule.priority, runAt = tick, maxAttempts = tonumber(ARGV[6]),
  args = schedule.args,
}, now)
task_wake(KEYS[8])

runs.lastRunAt = now
runs.lastTask = number
redis.call('HSET', KEYS[3], name, cjson.encode(runs))
return { 'ENQUEUED', number, now }
