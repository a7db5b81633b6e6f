-- contacts-add: moves a contact to the front of a recent-contacts list, dropping an older copy,
-- and trims the list (the book's add_update_contact, as one step instead of a transaction).
-- The list is one string of names joined by newlines, newest first; names never hold one.
-- KEYS[1]  the list (string)
-- ARGV[1]  the contact
-- ARGV[2]  most entries kept
-- Returns the number of entries afterwards.
local contact, cap = ARGV[1], tonumber(ARGV[2])
local list = redis.call('GET', KEYS[1])
local rest = ''
if list then
  -- Newlines on both sides, so that only a whole entry matches.
  local wrapped = '\n' .. list .. '\n'
  local from, to = string.find(wrapped, '\n' .. contact .. '\n', 1, true)
  if from then
    wrapped = string.sub(wrapped, 1, from) .. string.sub(wrapped, to + 1)
  end
  rest = string.sub(wrapped, 2, -2)
end
local updated = contact
if rest ~= '' then
  updated = contact .. '\n' .. rest
end
-- Cut the list after its cap-th entry.
local count, at = 1, 0
while true do
  local newline = string.find(updated, '\n', at + 1, true)
  if not newline then break end
  if count == cap then
    updated = string.sub(updated, 1, newline - 1)
    break
  end
  count, at = count + 1, newline
end
redis.call('SET', KEYS[1], updated)
return count
