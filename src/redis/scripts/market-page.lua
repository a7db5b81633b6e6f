-- market-page: a page of listings in (price, member) order, the order Redis keeps them in,
-- starting after a cursor. Listings bought or added between pages never make a page skip or
-- repeat one that stayed.
-- KEYS[1]  the listings (zset scored by price)
-- ARGV[1]  the cursor's price, or '' for the first page
-- ARGV[2]  the cursor's member
-- ARGV[3]  most listings to return
-- Returns member, price, member, price, ...
local key, count = KEYS[1], tonumber(ARGV[3])

-- Byte order, as Redis orders members of equal score (Lua's own < follows the locale).
local function greater(a, b)
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x > y end
  end
  return #a > #b
end

local start = 0
if ARGV[1] ~= '' then
  -- Listings at the cursor's price occupy ranks [low, high); find the first one past the cursor.
  local low = redis.call('ZCOUNT', key, '-inf', '(' .. ARGV[1])
  local high = low + redis.call('ZCOUNT', key, ARGV[1], ARGV[1])
  while low < high do
    local mid = math.floor((low + high) / 2)
    if greater(redis.call('ZRANGE', key, mid, mid)[1], ARGV[2]) then high = mid else low = mid + 1 end
  end
  start = low
end
return redis.call('ZRANGE', key, start, start + count - 1, 'WITHSCORES')
