-- chat-send: assigns the chat's next message id and stores the message in one step, so ids are
-- gapless and unique under any number of senders (the book takes a lock around this). A retry
-- with the same clientMessageId from the same sender returns the original message instead.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset message JSON -> id)
-- KEYS[3]  meta (hash: last, open, created)
-- KEYS[4]  sent (hash `sender\nclientMessageId` -> `id ts digest`)
-- KEYS[5]  sent expiry (zset of the sent fields -> unix ms when they may be forgotten)
-- ARGV[1]  sender
-- ARGV[2]  message text
-- ARGV[3]  clientMessageId, or '' for none
-- ARGV[4]  how long a clientMessageId is remembered, in milliseconds
-- ARGV[5]  channel prefix: each member is told on <prefix><member> (a retry tells them again, in
--          case the first attempt stored the message and its caller died); '' to tell nobody
-- ARGV[6], ARGV[7]  the notice around the message id: ARGV[6] .. id .. ARGV[7] (built by the
--          caller, resolvers/inbox.ts, so its JSON is written in one place)
-- Returns {1 when stored or 0 when this was a retry, message JSON, member, member, ...}.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the sender is
-- not a member (the two look the same); E_CLIENT_MESSAGE_ID_REUSED when the clientMessageId
-- was used for a different text.
local sender, text, clientId = ARGV[1], ARGV[2], ARGV[3]
if not redis.call('ZSCORE', KEYS[1], sender) then
  return redis.error_reply('E_CHAT_NOT_FOUND chat not found')
end
local now = now_ms()

-- Forget a bounded number of expired clientMessageIds on every send.
local expired = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'LIMIT', 0, 100)
if #expired > 0 then
  redis.call('HDEL', KEYS[4], unpack(expired))
  redis.call('ZREM', KEYS[5], unpack(expired))
end

-- Appended one by one: unpack() would overflow Lua's stack on a large chat. Telling the members
-- here rather than from the caller keeps a send one round trip however many members it tells.
local function withMembers(reply, id)
  local notice = ARGV[6] .. id .. ARGV[7]
  for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    reply[#reply + 1] = member
    if ARGV[5] ~= '' then
      redis.call(NOTIFY, ARGV[5] .. member, notice)
    end
  end
  return reply
end

local digest = redis.sha1hex(text)
local field = sender .. '\n' .. clientId
if clientId ~= '' then
  local prior = redis.call('HGET', KEYS[4], field)
  if prior then
    local id, ts, priorDigest = string.match(prior, '^(%d+) (%d+) (%x+)$')
    if priorDigest ~= digest then
      return redis.error_reply('E_CLIENT_MESSAGE_ID_REUSED clientMessageId was already used for a different message')
    end
    local json = cjson.encode({ id = tonumber(id), sender = sender, message = text, ts = tonumber(ts) })
    return withMembers({ 0, json }, id)
  end
end

local id = redis.call('HINCRBY', KEYS[3], 'last', 1)
local json = cjson.encode({ id = id, sender = sender, message = text, ts = now })
redis.call('ZADD', KEYS[2], id, json)
if clientId ~= '' then
  redis.call('HSET', KEYS[4], field, id .. ' ' .. now .. ' ' .. digest)
  redis.call('ZADD', KEYS[5], now + tonumber(ARGV[4]), field)
end
return withMembers({ 1, json }, id)
