-- task-list: one page of a queue's tasks in one state, with their texts.
-- Orders: WAITING in the order workers take them (the cursor is a position in that line, which
-- moves as workers take tasks: a page read while workers run may miss or repeat some); DELAYED by when they are due; ACTIVE by when
-- their lease ends; COMPLETED, FAILED and CANCELLED by when they finished (the finished set holds
-- all three, so it is read in steps and filtered: a page may come back short, with `more` set,
-- after ARGV[5] finished tasks were looked at).
-- KEYS[1]  records   KEYS[2]  arguments   KEYS[3]  results   KEYS[4]  errors   KEYS[5]  progress
-- KEYS[6]  delayed (zset)   KEYS[7]  active (zset)   KEYS[8]  finished (zset)
-- KEYS[9..14]  waiting lists in the order workers take from them
-- ARGV[1]  the state   ARGV[2]  ASC (oldest first) or DESC (newest first)
-- ARGV[3]  the cursor of the previous page, '' for the first: an offset for WAITING, else
--          `<score> <number>` of the last task looked at
-- ARGV[4]  page size   ARGV[5]  most tasks looked at
-- Returns {more (0 or 1), cursor ('' when no more), then for each task: number, record JSON,
-- arguments, result, error, progress ('' for none)}.
local state, ascending, cursor = ARGV[1], ARGV[2] == 'ASC', ARGV[3]
local first, budget = tonumber(ARGV[4]), tonumber(ARGV[5])
local numbers = {}
local more, nextCursor = 0, ''

if state == 'WAITING' then
  local lengths, total = {}, 0
  for list = 9, 14 do
    lengths[list] = redis.call('LLEN', KEYS[list])
    total = total + lengths[list]
  end
  local offset = cursor == '' and 0 or tonumber(cursor)
  -- Positions counted from the front (ASC) or the back (DESC) of the whole line: the page is the
  -- line's positions [low, high], read with one LRANGE per list it spans.
  local last = math.min(offset + first, total) - 1
  local low = ascending and offset or total - 1 - last
  local high = ascending and last or total - 1 - offset
  local base = 0
  for list = 9, 14 do
    local from, to = math.max(low - base, 0), math.min(high - base, lengths[list] - 1)
    if from <= to then
      for _, number in ipairs(redis.call('LRANGE', KEYS[list], from, to)) do numbers[#numbers + 1] = number end
    end
    base = base + lengths[list]
  end
  if not ascending then
    for i = 1, math.floor(#numbers / 2) do
      numbers[i], numbers[#numbers + 1 - i] = numbers[#numbers + 1 - i], numbers[i]
    end
  end
  if offset + first < total then
    more = 1
    nextCursor = tostring(offset + first)
  end
else
  local key = ({ DELAYED = 6, ACTIVE = 7 })[state] or 8
  local filter = key == 8
  local afterScore, afterMember = string.match(cursor, '^(%S+) (%S+)$')
  afterScore = afterScore and tonumber(afterScore)
  local range = ascending and 'ZRANGEBYSCORE' or 'ZREVRANGEBYSCORE'
  local from = afterScore or (ascending and '-inf' or '+inf')
  local to = ascending and '+inf' or '-inf'
  local skip, looked = 0, 0
  local lastScore, lastMember
  while #numbers < first and looked < budget do
    local batch = redis.call(range, KEYS[key], from, to, 'WITHSCORES', 'LIMIT', skip, 100)
    if #batch == 0 then break end
    skip = skip + #batch / 2
    for i = 1, #batch, 2 do
      local member, score = batch[i], tonumber(batch[i + 1])
      -- Members of one score come in byte order (reversed for DESC): skip up to the cursor.
      local past = afterScore == nil or score ~= afterScore
        or (ascending and member > afterMember) or (not ascending and member < afterMember)
      if past then
        looked = looked + 1
        lastScore, lastMember = batch[i + 1], member
        local keep = true
        if filter then
          local raw = redis.call('HGET', KEYS[1], member)
          keep = raw ~= false and cjson.decode(raw).state == state
        end
        if keep then numbers[#numbers + 1] = member end
        if #numbers == first or looked == budget then break end
      end
    end
  end
  if lastMember then
    -- More when anything lies beyond the last task looked at.
    local beyond = redis.call(range, KEYS[key], '(' .. lastScore, to, 'LIMIT', 0, 1)
    local sameScore = redis.call(range, KEYS[key], lastScore, lastScore)
    local tied = false
    for _, member in ipairs(sameScore) do
      if (ascending and member > lastMember) or (not ascending and member < lastMember) then tied = true break end
    end
    if #beyond > 0 or tied then
      more = 1
      nextCursor = lastScore .. ' ' .. lastMember
    end
  end
end

local reply = { more, nextCursor }
for _, number in ipairs(numbers) do
  local raw = redis.call('HGET', KEYS[1], number)
  if raw then
    reply[#reply + 1] = number
    reply[#reply + 1] = raw
    for hash = 2, 5 do reply[#reply + 1] = redis.call('HGET', KEYS[hash], number) or '' end
  end
end
return reply
