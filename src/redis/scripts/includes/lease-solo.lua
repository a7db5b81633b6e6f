-- lease-solo (include): the one value of a lease's solo key, for every lease script that reads
-- or writes it. The solo key holds the only holder of a name nobody else holds or waits for:
-- "id fencingToken expiresAt ttlMs owner" (owner last: it may hold spaces), and it expires at
-- the lease's own expiresAt (PXAT, unix ms by Redis's clock), so the key and the lease end together.

-- Its fields, as strings: id, fencingToken, expiresAt, ttlMs, owner.
local function solo_decode(value)
  return string.match(value, '^(%S+) (%d+) (%d+) (%d+) (.*)$')
end

-- Its value (numbers may be given as numbers or as their text); set with PXAT expiresAt.
local function solo_value(id, fence, expiresAt, ttl, owner)
  return id .. ' ' .. fence .. ' ' .. expiresAt .. ' ' .. ttl .. ' ' .. owner
end
