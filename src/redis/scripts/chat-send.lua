-- chat-send: appends an entry to a chat's log with the chat's next id, in one step, so ids are
-- gapless and unique under any number of senders (the book takes a lock around this). An entry
-- is a message, or an edit or deletion of one of the sender's messages: the change is an entry
-- of its own, so clients that pull in order see it, and the message itself is rewritten in place
-- (a deletion scrubs its text and its edits' texts from Redis). Then the log is trimmed to the
-- chat's retention, and devices that stopped fetching lose their cursors.
-- A retry with the same clientMessageId from the same sender returns the original message; an
-- edit to the text a message already has, or a deletion of a deleted one, returns the entry that
-- made it so.
-- KEYS[1]  members (zset member -> seen-id)
-- KEYS[2]  messages (zset entry JSON -> id)
-- KEYS[3]  meta (hash: last, open, created, gen, mode, keep, keepMs)
-- KEYS[4]  sent (hash `sender\nclientMessageId` -> `id ts digest`)
-- KEYS[5]  sent expiry (zset of the sent fields -> unix ms when they may be forgotten)
-- KEYS[6]  joined (hash member -> entry id after which they may read)
-- KEYS[7]  cursors (zset `user\ndevice` -> entry id)
-- KEYS[8]  active (zset `user\ndevice` -> last fetch, unix ms)
-- ARGV[1]  sender
-- ARGV[2]  text ('' for a deletion)
-- ARGV[3]  clientMessageId, or '' for none
-- ARGV[4]  how long a clientMessageId is remembered, in milliseconds
-- ARGV[5]  inbox channel prefix: each member is told on <prefix><member> (a retry tells them
--          again, in case the first attempt stored the entry and its caller died); '' for nobody
-- ARGV[6], ARGV[7]  the inbox notice around the entry id: ARGV[6] .. id .. ARGV[7] (built by the
--          caller, resolvers/inbox.ts, so its JSON is written in one place)
-- ARGV[8]  'message', 'edit' or 'delete'
-- ARGV[9]  for an edit or deletion, the id of the message it changes
-- ARGV[10] most entries kept, for a chat that does not say (created before retention existed)
-- ARGV[11] longest an entry is kept in milliseconds, likewise
-- ARGV[12] the device lifetime, in milliseconds: a cursor unused for that long goes, as its device
--          is forgotten; `active` keeps a mark of it (minus when it went) for a while, so that a
--          fetch the device list let through just before forgetting it is told (chat-fetch.lua)
-- ARGV[13] the chat's change channel; ARGV[14] the chat id
-- ARGV[15] for an edit, the version it was made against ('' for any): the id of the entry that
--          gave the message the text the editor saw (the message's own id, or an edit's). A stale
--          one is refused, unless the edit that followed it has this very text: then it is a late
--          retry of that edit, which is returned, so a retry can never undo a newer edit.
-- Returns {1 when appended or 0 when this was a retry, entry JSON, member, member, ...}.
-- Errors, with nothing written: E_CHAT_NOT_FOUND when the chat does not exist or the sender is
-- not a member (the two look the same); E_CLIENT_MESSAGE_ID_REUSED when the clientMessageId
-- was used for a different text; E_MESSAGE_NOT_FOUND when the message to change is not kept or
-- not visible to the sender; E_NOT_A_MESSAGE when it is an edit or deletion; E_NOT_YOURS when
-- another member sent it; E_MESSAGE_DELETED to edit a deleted one; E_TOO_MANY_EDITS;
-- E_NO_SUCH_VERSION when ARGV[15] is no version of the message; E_STALE_EDIT when the message was
-- edited since that version.
local MAX_EDITS = 100
local sender, text, clientId, kind = ARGV[1], ARGV[2], ARGV[3], ARGV[8]
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

local function entryAt(id)
  return redis.call('ZRANGEBYSCORE', KEYS[2], id, id)[1]
end

local function rewrite(old, entry)
  redis.call('ZREM', KEYS[2], old)
  redis.call('ZADD', KEYS[2], entry.id, cjson.encode(entry))
end

local digest, field
local target, original, originalJson
if kind == 'message' then
  digest = redis.sha1hex(text)
  field = sender .. '\n' .. clientId
  if clientId ~= '' then
    local prior = redis.call('HGET', KEYS[4], field)
    if prior then
      local id, ts, priorDigest = string.match(prior, '^(%d+) (%d+) (%x+)$')
      -- '0': the message was deleted, and with it the digest of its text (see below).
      if priorDigest ~= digest and priorDigest ~= '0' then
        return redis.error_reply('E_CLIENT_MESSAGE_ID_REUSED clientMessageId was already used for a different message')
      end
      -- The entry as it is now (edited or deleted since), or as it was when it is no longer kept.
      local json = entryAt(id)
      if not json and priorDigest == '0' then
        json = cjson.encode({ id = tonumber(id), sender = sender, message = '', ts = tonumber(ts), deleted = true })
      elseif not json then
        json = cjson.encode({ id = tonumber(id), sender = sender, message = text, ts = tonumber(ts) })
      end
      return withMembers({ 0, json }, id)
    end
  end
else
  target = tonumber(ARGV[9])
  local joined = tonumber(redis.call('HGET', KEYS[6], sender) or '0')
  originalJson = target > joined and entryAt(target)
  if not originalJson then
    return redis.error_reply('E_MESSAGE_NOT_FOUND no message ' .. target .. ' is kept in this chat')
  end
  original = cjson.decode(originalJson)
  if original.kind then
    return redis.error_reply('E_NOT_A_MESSAGE entry ' .. target .. ' is an edit or deletion, not a message')
  end
  if original.sender ~= sender then
    return redis.error_reply('E_NOT_YOURS only its sender may change a message')
  end
  local version = tonumber(ARGV[15])
  if kind == 'edit' and version and not original.deleted and version ~= (original.lastEdit or target) then
    local edits = original.edits or {}
    local following = version == target and edits[1]
    for k = 1, #edits - 1 do
      if edits[k] == version then
        following = edits[k + 1]
      end
    end
    if not following then
      return redis.error_reply('E_NO_SUCH_VERSION ' .. version .. ' is no version of message ' .. target)
    end
    local json = entryAt(following)
    if json and cjson.decode(json).message == text then
      return withMembers({ 0, json }, following)
    end
    return redis.error_reply('E_STALE_EDIT message ' .. target .. ' was edited since version ' .. version ..
      ' (it is at version ' .. (original.lastEdit or target) .. ')')
  end
  -- Repeating a change returns the entry that made it, so a retried edit or deletion adds nothing.
  local done
  if kind == 'edit' and not original.deleted and original.lastEdit and original.message == text then
    done = original.lastEdit
  elseif kind == 'delete' and original.deleted then
    done = original.deletedBy
  end
  if done then
    local prior = entryAt(done) or
      cjson.encode({ id = done, sender = sender, message = text, ts = now, kind = kind, target = target })
    return withMembers({ 0, prior }, done)
  end
  if original.deleted then
    return redis.error_reply('E_MESSAGE_DELETED message ' .. target .. ' was deleted')
  end
  if kind == 'edit' and original.edits and #original.edits >= MAX_EDITS then
    return redis.error_reply('E_TOO_MANY_EDITS a message may be edited at most ' .. MAX_EDITS .. ' times')
  end
end

local id = redis.call('HINCRBY', KEYS[3], 'last', 1)
local entry = { id = id, sender = sender, message = text, ts = now }
if clientId ~= '' then
  entry.c = clientId -- so that a deletion finds the record of the send
end
if kind ~= 'message' then
  entry.kind = kind
  entry.target = target
  if kind == 'edit' then
    original.message = text
    original.editedAt = now
    original.lastEdit = id
    original.edits = original.edits or {}
    original.edits[#original.edits + 1] = id
  else
    -- The text goes from the message and from every edit of it; the ids stay, so the log has no gaps.
    for _, editId in ipairs(original.edits or {}) do
      local editJson = entryAt(editId)
      if editJson then
        local edit = cjson.decode(editJson)
        edit.message = ''
        edit.deleted = true
        rewrite(editJson, edit)
      end
    end
    -- Nor does a digest of the text stay behind, which could confirm a guess of it.
    if original.c then
      local sentField = sender .. '\n' .. original.c
      local record = redis.call('HGET', KEYS[4], sentField)
      -- Only this message's record: the clientMessageId may have been used again since.
      if record and tonumber(string.match(record, '^(%d+) ')) == target then
        redis.call('HSET', KEYS[4], sentField, string.match(record, '^(%d+ %d+) ') .. ' 0')
      end
    end
    original.message = ''
    original.deleted = true
    original.deletedBy = id
    original.editedAt = nil
  end
  rewrite(originalJson, original)
end
local json = cjson.encode(entry)
redis.call('ZADD', KEYS[2], id, json)
if kind == 'message' and clientId ~= '' then
  redis.call('HSET', KEYS[4], field, id .. ' ' .. now .. ' ' .. digest)
  redis.call('ZADD', KEYS[5], now + tonumber(ARGV[4]), field)
  -- Once a chat is quiet for that long every record is past remembering: the keys go with them.
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
  redis.call('PEXPIRE', KEYS[5], ARGV[4])
end

-- Retention: at most `keep` entries, none older than `keepMs` (a bounded number of the oldest
-- looked at per append; the key's expiry takes the rest once the chat has been quiet that long).
local settings = redis.call('HMGET', KEYS[3], 'keep', 'keepMs')
local keep = tonumber(settings[1] or ARGV[10])
local keepMs = tonumber(settings[2] or ARGV[11])
local excess = redis.call('ZCARD', KEYS[2]) - keep
if excess > 0 then
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, excess - 1)
end
for _ = 1, 100 do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
  -- An entry's own "ts" key comes first: in a text, quotes are escaped.
  local ts = oldest and tonumber(string.match(oldest, '"ts":([%d%.eE%+]+)'))
  if not ts or ts >= now - keepMs then
    break
  end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, 0)
end
redis.call('PEXPIRE', KEYS[2], keepMs)

local life = tonumber(ARGV[12])
for _, field in ipairs(redis.call('ZRANGEBYSCORE', KEYS[8], 0, now - life, 'LIMIT', 0, 20)) do
  redis.call('ZREM', KEYS[7], field)
  redis.call('ZADD', KEYS[8], -now, field)
end
-- Marks are needed no longer than the device list remembers a forgotten device (four lifetimes).
redis.call('ZREMRANGEBYSCORE', KEYS[8], '(' .. (4 * life - now), '(0')

redis.call(NOTIFY, ARGV[13], cjson.encode({ chatId = ARGV[14], change = 'ENTRY', user = sender, messageId = id }))
return withMembers({ 1, json }, id)
