-- wrk script of the bench (tests/load/bench.mjs): cycles over the paths in a file, one a line,
-- with the method, JSON body and Authorization header given as its arguments ("" for none).
-- "{iv}" in a path becomes 32 fresh random hex digits on every request.
local paths, method, body, authorization = {}, "GET", nil, nil
local index = 0

function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  method = args[2] or "GET"
  if args[3] ~= nil and args[3] ~= "" then body = args[3] end
  if args[4] ~= nil and args[4] ~= "" then authorization = args[4] end
  math.randomseed(os.time())
end

local function hex()
  local digits = {}
  for i = 1, 32 do digits[i] = string.format("%x", math.random(0, 15)) end
  return table.concat(digits)
end

function request()
  index = index % #paths + 1
  local path = (paths[index]:gsub("{iv}", hex))
  local headers = {}
  if body ~= nil then headers["Content-Type"] = "application/json" end
  if authorization ~= nil then headers["Authorization"] = authorization end
  return wrk.format(method, path, headers, body)
end
