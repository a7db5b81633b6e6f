-- counter-series: aggregates the samples of some counters of one bucket into steps of ARGV[1]
-- seconds, at one precision for all of them, in one round trip. Steps are aligned to multiples of
-- the step (as RedisTimeSeries aligns buckets to 0); the series holds every step from the one
-- containing `from` to the one containing `to`. The precision is the finest candidate whose
-- retained window reaches back to the first step, else the coarsest candidate. Only the slices of
-- the range are read (HMGET), unless the hash holds fewer fields than that (then HGETALL).
-- Read-only.
-- KEYS[(c-1)*m + j]  sample hash of counter c at candidate precision j (m candidates)
-- ARGV[1]  step, in seconds: a multiple of every candidate precision
-- ARGV[2]  from, unix seconds
-- ARGV[3]  to, unix seconds, or '' for the server's clock
-- ARGV[4]  most steps a series may hold
-- ARGV[5]  aggregation: SUM, AVG, MIN, MAX or COUNT (for AVG the sum is returned; the caller
--          divides by the slices per step)
-- ARGV[6]  how many seconds ahead of the clock an update may count (no later slice is read)
-- ARGV[7]  precision to use, or '' to choose one
-- ARGV[8]  m, the number of candidate precisions
-- ARGV[7+2j], ARGV[8+2j]  candidate precision j (ascending) and the slices kept at it
-- Returns {now, precision, retained from (unix seconds), first step's start, number of steps,
--   then per counter {step index, value, step index, value, ...} for the steps holding a sample}.
-- Errors: E_FROM_AFTER_NOW when ARGV[3] is '' and from is after the clock; E_TOO_MANY_POINTS
-- when the range holds more than ARGV[4] steps.
local step = tonumber(ARGV[1])
local from = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1])
local to = now
-- A `from` within the current second is not after the clock: compare with its fraction.
local exactNow = now + tonumber(clock[2]) / 1000000
if ARGV[3] ~= '' then
  to = tonumber(ARGV[3])
elseif from > exactNow then
  return redis.error_reply('E_FROM_AFTER_NOW from is after the server clock, and to defaults to it')
end
local first = math.floor(from / step) * step
local points = (math.floor(to / step) * step - first) / step + 1
if points > tonumber(ARGV[4]) then
  return redis.error_reply('E_TOO_MANY_POINTS the range holds ' .. string.format('%d', points) .. ' steps, more than '
    .. ARGV[4] .. ': use a longer step or a shorter range')
end
local aggregation = ARGV[5]
local future = tonumber(ARGV[6])
local m = tonumber(ARGV[8])

local function retainedFrom(j)
  local precision = tonumber(ARGV[7 + 2 * j])
  local keep = tonumber(ARGV[8 + 2 * j])
  return math.max(0, (math.floor(now / precision) - keep + 1) * precision)
end

local chosen
for j = 1, m do
  if ARGV[7] ~= '' then
    if ARGV[7 + 2 * j] == ARGV[7] then chosen = j end
  elseif first >= retainedFrom(j) then
    chosen = j
  end
  if chosen then break end
end
chosen = chosen or m
local precision = tonumber(ARGV[7 + 2 * chosen])
local perStep = step / precision

-- The slices to read: those of the range, none later than an update may count.
local lo = first
local hi = math.min(first + points * step - precision, math.floor((now + future) / precision) * precision)
local slots = (hi - lo) / precision + 1
local CHUNK = 1000

local floor, format, tonumber, unpack = math.floor, string.format, tonumber, unpack
local wantMin, wantMax = aggregation == 'MIN', aggregation == 'MAX'

-- One counter's {step index, value, ...} for the steps that hold a sample. Called once per
-- slice, so it keeps to locals: global and field lookups cost as much as the arithmetic.
local function aggregate(key)
  local sums, counts, mins, maxs = {}, {}, {}, {}
  local function add(slot, value)
    local i = floor(slot / perStep)
    local n = counts[i]
    if n then
      counts[i] = n + 1
      sums[i] = sums[i] + value
      if wantMin and value < mins[i] then mins[i] = value end
      if wantMax and value > maxs[i] then maxs[i] = value end
    else
      counts[i], sums[i], mins[i], maxs[i] = 1, value, value, value
    end
  end

  local size = slots > 0 and redis.call('HLEN', key) or 0
  if size > 0 and slots <= size then
    for offset = 0, slots - 1, CHUNK do
      local fields = {}
      local count = math.min(CHUNK, slots - offset)
      local slice = lo + offset * precision
      for k = 1, count do
        fields[k] = format('%d', slice)
        slice = slice + precision
      end
      local values = redis.call('HMGET', key, unpack(fields))
      for k = 1, count do
        local value = values[k]
        if value then add(offset + k - 1, tonumber(value)) end
      end
    end
  elseif size > 0 then
    local all = redis.call('HGETALL', key)
    for k = 1, #all, 2 do
      local slice = tonumber(all[k])
      if slice and slice >= lo and slice <= hi and slice % precision == 0 then
        add((slice - lo) / precision, tonumber(all[k + 1]))
      end
    end
  end

  local out = {}
  for i = 0, points - 1 do
    local n = counts[i]
    if n then
      local value = sums[i]
      -- A slice without a sample counted nothing: it is a 0 among the step's slices.
      if aggregation == 'COUNT' then
        value = n
      elseif wantMin then
        value = mins[i]
        if n < perStep and value > 0 then value = 0 end
      elseif wantMax then
        value = maxs[i]
        if n < perStep and value < 0 then value = 0 end
      end
      out[#out + 1] = i
      out[#out + 1] = value
    end
  end
  return out
end

local reply = { now, precision, retainedFrom(chosen), first, points }
for c = 0, #KEYS / m - 1 do
  reply[#reply + 1] = aggregate(KEYS[c * m + chosen])
end
return reply
