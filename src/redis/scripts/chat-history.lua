-- chat-history: one page of a chat's kept entries before an id, newest first, for scrolling back.
-- Ids never change and new entries only come after, so paging by id neither skips nor repeats
-- while entries arrive. A member reads nothing from before their joining.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, keepMs)
-- KEYS[4]  joined (hash member -> entry id after which they may read)
-- ARGV[1]  user
-- ARGV[2]  the page ends before this entry id; '' for the newest page
-- ARGV[3]  most entries on the page
-- ARGV[4]  longest an entry is kept in milliseconds, for a chat that does not say
-- Returns {-1} when the user is not a member, else {id of the oldest entry the user may read
-- (latest + 1 when none), 1 when older entries are kept, JSON, JSON, ...}.
local user = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], user) then
  return { -1 }
end
local joined = tonumber(redis.call('HGET', KEYS[4], user) or '0')
local meta = redis.call('HMGET', KEYS[3], 'last', 'keepMs')
local cutoff = now_ms() - tonumber(meta[2] or ARGV[4])
local last = tonumber(ARGV[3])
local upper = ARGV[2] == '' and '+inf' or '(' .. ARGV[2]
local found = redis.call('ZREVRANGEBYSCORE', KEYS[2], upper, '(' .. joined, 'LIMIT', 0, last + 1)
local oldest = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. joined, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)[2]
local reply = { oldest and tonumber(oldest) or tonumber(meta[1] or '0') + 1, 0 }
for i = 1, math.min(#found, last) do
  -- Entries past their age wait for the next append to trim them; they are not shown meanwhile.
  local ts = tonumber(string.match(found[i], '"ts":([%d%.eE%+]+)'))
  if ts and ts < cutoff then
    return reply
  end
  reply[#reply + 1] = found[i]
end
if #found > last then
  reply[2] = 1
end
return reply
