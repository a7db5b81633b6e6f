-- contacts-remove: takes a contact off a recent-contacts list (the book's remove_contact).
-- KEYS[1]  the list (string of names joined by newlines, newest first)
-- ARGV[1]  the contact
-- Returns 1 when it was there, 0 when not.
local list = redis.call('GET', KEYS[1])
if not list then return 0 end
local wrapped = '\n' .. list .. '\n'
local from, to = string.find(wrapped, '\n' .. ARGV[1] .. '\n', 1, true)
if not from then return 0 end
local rest = string.sub(string.sub(wrapped, 1, from) .. string.sub(wrapped, to + 1), 2, -2)
if rest == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], rest)
end
return 1
