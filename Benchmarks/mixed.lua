-- A mixed load for wrk (script/bench --mixed): signed-in members reading and writing.
-- SESSIONS names a file of "cookie csrf-token" lines; NEWEST is the newest post's id.
local sessions = {}
for line in io.lines(os.getenv("SESSIONS")) do
  local cookie, token = line:match("^(%S+) (%S+)$")
  if cookie then sessions[#sessions + 1] = { cookie = "moim_session=" .. cookie, token = token } end
end
local newest = tonumber(os.getenv("NEWEST"))
local searches = { "%ED%95%9C%EA%B0%95%EB%9F%AC%EB%8B%9D", "morning", "%EB%A7%88%EB%9D%BC%ED%86%A4", "tempo" }
local counter = 0
-- SEARCH_PERCENT (default 5) of the requests search; the rest of that share reads the feed.
local search = tonumber(os.getenv("SEARCH_PERCENT") or "5")

request = function()
  counter = counter + 1
  local member = sessions[counter % #sessions + 1]
  local headers = { ["Cookie"] = member.cookie }
  local roll = math.random(100)
  local post = math.random(math.max(1, newest - 5000), newest)
  if roll <= 60 or (roll > 85 and roll <= 90 - search) then
    return wrk.format("GET", "/", headers)
  elseif roll <= 75 then
    return wrk.format("GET", "/posts/" .. post, headers)
  elseif roll <= 85 then
    return wrk.format("GET", "/u/runner" .. math.random(1, 10000), headers)
  elseif roll <= 90 then
    return wrk.format("GET", "/search?q=" .. searches[math.random(#searches)], headers)
  end
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  if roll <= 97 then
    return wrk.format("POST", "/posts/" .. post .. "/like", headers, "_csrf=" .. member.token)
  end
  return wrk.format("POST", "/posts/" .. post .. "/comments", headers,
    "_csrf=" .. member.token .. "&body=Nice+run%21+See+you+on+Saturday.")
end
