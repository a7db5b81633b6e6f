-- push-target-of (include): what a stored push target reaches, for the scripts that compare one
-- (push-target-set, push-target-remove).
--
-- push_target_of(json): the kind, the address (a Web Push endpoint, or an APNs or FCM token) and
-- `at` (unix ms) of a target as push/targets.ts stores it; nil for what does not decode. Two
-- targets with the same kind and address reach the same phone or browser, whatever their keys.
local function push_target_of(json)
  local ok, target = pcall(cjson.decode, json)
  if not ok or type(target) ~= 'table' then return nil end
  return target.kind, target.endpoint or target.token, target.at
end
