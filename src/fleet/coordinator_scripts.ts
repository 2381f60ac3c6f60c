/**
 * The coordinator's atomic steps, as Lua scripts run by Redis (`EVAL`).
 * Every key a script touches is passed in `KEYS`. A lease is a key whose
 * value is its holder's random owner id and which expires unless renewed;
 * only the holder renews or deletes it.
 *
 * @module
 */

/**
 * The cached URL, or the claim to resolve it. KEYS: the URL key, the
 * "resolving" key. ARGV: owner id, lease ms, and the stale URL (`""` for
 * none): a cached entry whose `url` is the stale one is deleted. Answers
 * `["cached", value, ms it has left]`, `["claimed"]` (the caller now holds the resolving
 * lease) or `["busy"]` (another process is resolving it).
 */
export const GET_OR_CLAIM = `
local cached = redis.call('GET', KEYS[1])
if cached then
  if ARGV[3] == '' or cjson.decode(cached).url ~= ARGV[3] then
    return {'cached', cached, redis.call('PTTL', KEYS[1])}
  end
  redis.call('DEL', KEYS[1])
end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {'claimed'}
end
return {'busy'}
`;

/**
 * One free HEAD place taken as a lease. KEYS: every place's key. ARGV:
 * owner id, lease ms. Answers the index of the place taken, or -1 when
 * all are held.
 */
export const TAKE_PLACE = `
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then
    return i - 1
  end
end
return -1
`;

/**
 * Extends the leases the caller holds. KEYS: the leases. ARGV: their owner
 * ids in the same order, then the lease ms. Answers how many were no
 * longer the caller's.
 */
export const RENEW = `
local lost = 0
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i] then
    redis.call('PEXPIRE', key, ARGV[#ARGV])
  else
    lost = lost + 1
  end
end
return lost
`;

/**
 * Ends a resolution: stores the URL (unless `""`) with its time to live,
 * and gives back the leases the owner still holds. KEYS: the URL key, then
 * the leases. ARGV: the entry, its time to live in ms, the owner id.
 */
export const FINISH = `
if ARGV[1] ~= '' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
for i = 2, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[3] then
    redis.call('DEL', KEYS[i])
  end
end
return 1
`;
