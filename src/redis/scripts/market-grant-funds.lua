-- market-grant-funds: adds to a user's funds (service callers, for set-up), keeping the balance
-- within a cap so that it stays an exact integer in every client.
-- KEYS[1]  the user (hash with `funds`)
-- ARGV[1]  the amount, positive
-- ARGV[2]  the largest balance allowed
-- Returns the new balance; fails with E_FUNDS_CAP, changing nothing.
local funds = tonumber(redis.call('HGET', KEYS[1], 'funds') or '0')
local amount, cap = tonumber(ARGV[1]), tonumber(ARGV[2])
if funds + amount > cap then
  return redis.error_reply('E_FUNDS_CAP ' .. ARGV[2])
end
return redis.call('HINCRBY', KEYS[1], 'funds', amount)
