-- wrk script of the bench (tests/load/bench.mjs): cycles over the paths in a file, one a line,
-- with the method, body, Authorization and Content-Type headers given as its arguments ("" for
-- none; the body's type is JSON unless named). A line may carry its own body after a tab (each
-- device code's token request). "{iv}" in a path becomes 32 fresh random hex digits on every request.
local paths, bodies, method, body, authorization, contentType = {}, {}, "GET", nil, nil, "application/json"
local index = 0

function init(args)
  for line in io.lines(args[1]) do
    local path, own = line:match("^([^\t]*)\t(.*)$")
    paths[#paths + 1] = path or line
    bodies[#paths] = own
  end
  method = args[2] or "GET"
  if args[3] ~= nil and args[3] ~= "" then body = args[3] end
  if args[4] ~= nil and args[4] ~= "" then authorization = args[4] end
  if args[5] ~= nil and args[5] ~= "" then contentType = args[5] end
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
  local sent = bodies[index] or body
  local headers = {}
  if sent ~= nil then headers["Content-Type"] = contentType end
  if authorization ~= nil then headers["Authorization"] = authorization end
  return wrk.format(method, path, headers, sent)
end
