-- wrk script of the mixed soak (scripts/serve-load.sh --soak): per request, one class drawn at
-- random (fixed weights below), sent through nginx to `pqsig serve verify`:
--   good-*    the good bot's signed requests (must be 200): sig1, sig1 + sig2 (reusable, no
--             nonce) and sig1 with a nonce (each sent once: a pool split between the threads)
--   garbage-* the good bot's request broken in one way each (flipped signature byte, random
--             signature, cut / junk Signature-Input, wrong alg / keyid / tag / agent, expired,
--             a valid sig1 beside a broken sig2, too many labels, oversized headers, unsigned)
--   hostile-* requests naming stranger directories: hang, junk, 16 MiB, JSON nested 100,000 deep,
--             a lying kid (the stranger's key under the good bot's thumbprint), a stranger's label
--             covering the good bot's member beside an uncovered stranger member, and churn (a new
--             agent origin per request)
--   replay-*  a nonce'd good request sent again: one this thread saw answered 200, or one of the
--             pool burned before the run
--   cross-*   signatures made for another site (attacker.example, localhost), also behind an
--             absolute-form request line naming the protected site
--   newbot-K  report only: well-behaved bots whose directories the verifier has not fetched yet,
--             bot K joining K fifths into the run (how long until a new bot is served while
--             strangers keep the directory fetcher busy); neither a false accept nor a good-bot
--             failure
-- nginx echoes X-Soak-Class / X-Soak-Id in every response (add_header ... always), so each
-- response is counted under its class. A 200 for anything but good-* is a FALSE ACCEPT.
-- Arguments (after --): DATA_FILE CHURN_PORT [DURATION_S]

local data_file, churn_port, duration, t0
local pools = {}          -- class -> list of request strings (static)
local templ = {}          -- named header templates (lists of {name, value})
local nonce_pool = {}     -- this thread's nonce'd good requests
local nonce_next = 1
local done_ring = {}      -- ids of this thread's nonce'd requests answered 200 (for replay-live)
local done_n = 0
-- globals: read by done() through thread:get
sent, got, reasons = {}, {}, {}
local nonce_by_id = {}
local churn_n = 0

-- weights per 1000
local classes = {
  {"good-sig1", 150}, {"good-sig12", 100}, {"good-nonce", 150},
  {"garbage", 250},
  {"hostile-churn", 70}, {"hostile-junk", 20}, {"hostile-nested", 20}, {"hostile-huge", 12},
  {"hostile-liar-kid", 18}, {"hostile-cross-agent", 18}, {"hostile-hang", 2},
  {"replay", 90},
  {"cross", 80}, {"newbot", 20},
}

local garbage_kinds = {
  "flip", "random-sig", "cut-input", "junk-input", "no-signature", "no-input", "expired", "alg",
  "keyid", "sig2-broken", "labels", "oversized", "agent", "tag", "no-agent", "unsigned",
}

local b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

local function inc(t, k, n) t[k] = (t[k] or 0) + (n or 1) end

local function read_records(path)
  local f = assert(io.open(path, "r"))
  local recs, cur = {}, nil
  for line in f:lines() do
    if line == "%%" then
      if cur then recs[#recs + 1] = cur end
      cur = nil
    elseif not cur then
      local cls, target = line:match("^class (%S+)%s*(%S*)$")
      assert(cls, "bad record start: " .. line)
      cur = {cls = cls, target = (target ~= "" and target) or "/index.html", headers = {}}
    else
      local n, v = line:match("^([^:]+): (.*)$")
      assert(n, "bad header line: " .. line)
      cur.headers[#cur.headers + 1] = {n, v}
    end
  end
  if cur then recs[#recs + 1] = cur end
  f:close()
  return recs
end

local function copy_headers(h)
  local c = {}
  for i, kv in ipairs(h) do c[i] = {kv[1], kv[2]} end
  return c
end

local function get(h, name)
  for _, kv in ipairs(h) do if kv[1]:lower() == name:lower() then return kv[2] end end
  return nil
end

local function set(h, name, value)
  for _, kv in ipairs(h) do
    if kv[1]:lower() == name:lower() then kv[2] = value; return end
  end
  h[#h + 1] = {name, value}
end

local function drop(h, name)
  local out = {}
  for _, kv in ipairs(h) do if kv[1]:lower() ~= name:lower() then out[#out + 1] = kv end end
  return out
end

local function raw(target, h, cls, id)
  local s = {"GET " .. target .. " HTTP/1.1"}
  for _, kv in ipairs(h) do s[#s + 1] = kv[1] .. ": " .. kv[2] end
  s[#s + 1] = "X-Soak-Class: " .. cls
  s[#s + 1] = "X-Soak-Id: " .. (id or 0)
  s[#s + 1] = ""
  s[#s + 1] = ""
  return table.concat(s, "\r\n")
end

local function rand_b64(n)
  local t = {}
  for i = 1, n do local k = math.random(1, 64); t[i] = b64:sub(k, k) end
  return table.concat(t)
end

local function rand_printable(n)
  local t = {}
  for i = 1, n do t[i] = string.char(math.random(33, 126)) end
  return table.concat(t)
end

-- Change one base64 character of the byte sequence of `label` in a Signature field value.
local function flip_sig(sig, label)
  local s, e = sig:find(label .. "=:", 1, true)
  if not s then return sig .. "x" end
  local body_start = e + 1
  local body_end = sig:find(":", body_start, true) - 1
  -- stay clear of the last 3 characters (padding bits) so the decoded bytes always change
  local pos = math.random(body_start, math.max(body_start, body_end - 3))
  local old = sig:sub(pos, pos)
  local new = old
  while new == old do local k = math.random(1, 64); new = b64:sub(k, k) end
  return sig:sub(1, pos - 1) .. new .. sig:sub(pos + 1)
end

local function garbage()
  local kind = garbage_kinds[math.random(1, #garbage_kinds)]
  local h = copy_headers(templ.sig1)
  if kind == "flip" then
    set(h, "Signature", flip_sig(get(h, "Signature"), "sig1"))
  elseif kind == "random-sig" then
    set(h, "Signature", "sig1=:" .. rand_b64(86) .. "==:")
  elseif kind == "cut-input" then
    local si = get(h, "Signature-Input")
    set(h, "Signature-Input", si:sub(1, math.random(1, #si - 1)))
  elseif kind == "junk-input" then
    set(h, "Signature-Input", rand_printable(math.random(1, 300)))
  elseif kind == "no-signature" then
    h = drop(h, "Signature")
  elseif kind == "no-input" then
    h = drop(h, "Signature-Input")
  elseif kind == "expired" then
    local si = get(h, "Signature-Input")
    local created = tonumber(si:match("created=(%d+)"))
    si = si:gsub("created=%d+", "created=" .. (created - 7200)):gsub("expires=%d+", "expires=" .. (created - 3600))
    set(h, "Signature-Input", si)
  elseif kind == "alg" then
    set(h, "Signature-Input", (get(h, "Signature-Input"):gsub('alg="ed25519"', 'alg="ml-dsa-44"')))
  elseif kind == "keyid" then
    local si = get(h, "Signature-Input")
    set(h, "Signature-Input", (si:gsub('keyid="[^"]*"', 'keyid="' .. templ.ml_keyid .. '"')))
  elseif kind == "sig2-broken" then
    h = copy_headers(templ.sig12)
    set(h, "Signature", flip_sig(get(h, "Signature"), "sig2"))
  elseif kind == "labels" then
    local si, sg = {}, {}
    local one_in = get(h, "Signature-Input"):match("^sig1=(.*)$")
    local one_sig = get(h, "Signature"):match("^sig1=(.*)$")
    for i = 1, 12 do
      si[i] = "l" .. i .. "=" .. one_in
      sg[i] = "l" .. i .. "=" .. one_sig
    end
    set(h, "Signature-Input", table.concat(si, ", "))
    set(h, "Signature", table.concat(sg, ", "))
  elseif kind == "oversized" then
    for i = 1, 3 do set(h, "X-Pad-" .. i, string.rep("p", 7000)) end
  elseif kind == "agent" then
    set(h, "Signature-Agent", (get(h, "Signature-Agent"):gsub('"$', '/"')))
  elseif kind == "tag" then
    set(h, "Signature-Input", (get(h, "Signature-Input"):gsub('tag="web%-bot%-auth"', 'tag="web-bot-auth2"')))
  elseif kind == "no-agent" then
    h = drop(h, "Signature-Agent")
  else -- unsigned
    h = drop(drop(drop(h, "Signature"), "Signature-Input"), "Signature-Agent")
  end
  return raw("/index.html", h, "garbage-" .. kind)
end

local function pick(list) return list[math.random(1, #list)] end

function setup(thread)
  _G.soak_threads = _G.soak_threads or {}
  local n = #_G.soak_threads
  thread:set("soak_tid", n)
  _G.soak_threads[n + 1] = thread
end

function init(args)
  data_file, churn_port, duration = args[1], tonumber(args[2]), tonumber(args[3] or "0")
  t0 = os.time()
  assert(data_file and churn_port, "usage: wrk ... -s soak.lua URL -- DATA_FILE CHURN_PORT")
  local tid = soak_tid or 0
  local nthreads = tonumber(os.getenv("SOAK_WRK_THREADS") or "1")
  math.randomseed(os.time() * 1000 + tid * 7919 + tonumber(os.getenv("SOAK_SEED") or "0"))
  local nonce_i = 0
  for _, r in ipairs(read_records(data_file)) do
    if r.cls == "templ-sig1" then templ.sig1 = r.headers
    elseif r.cls == "templ-sig12" then templ.sig12 = r.headers
    elseif r.cls == "templ-churn" then templ.churn = r.headers
    elseif r.cls == "good-nonce" then
      -- each nonce'd request belongs to exactly one thread (sent once in the whole run)
      if nonce_i % nthreads == tid then
        nonce_pool[#nonce_pool + 1] = {headers = r.headers, id = nonce_i}
      end
      nonce_i = nonce_i + 1
    else
      pools[r.cls] = pools[r.cls] or {}
      local list = pools[r.cls]
      list[#list + 1] = {target = r.target, headers = r.headers}
    end
  end
  assert(templ.sig1 and templ.sig12 and templ.churn, "templates missing in " .. data_file)
  -- the ML-DSA key's thumbprint (sig2 of the two-label template): a key of the same directory
  templ.ml_keyid = get(templ.sig12, "Signature-Input"):match('sig2=.-keyid="([^"]*)"')
  -- static requests, formatted once
  for cls, list in pairs(pools) do
    for i, r in ipairs(list) do list[i] = {raw = raw(r.target, r.headers, cls), headers = r.headers, target = r.target} end
  end
  for _, cls in ipairs({"good-sig1", "good-sig12", "hostile-hang", "hostile-junk", "hostile-huge", "hostile-nested",
                        "hostile-liar-kid", "hostile-cross-agent", "replay-pre", "cross-host", "cross-sig",
                        "cross-abs", "cross-local"}) do
    assert(pools[cls] and #pools[cls] > 0, "no requests of class " .. cls .. " in " .. data_file)
  end
  for i, n in ipairs(nonce_pool) do nonce_pool[i].raw = raw("/index.html", n.headers, "good-nonce", n.id) end
  for _, n in ipairs(nonce_pool) do nonce_by_id[n.id] = n end
end

local function draw()
  local r = math.random(1, 1000)
  for _, c in ipairs(classes) do
    r = r - c[2]
    if r <= 0 then return c[1] end
  end
  return "good-sig1"
end

function request()
  local cls = draw()
  local req
  if cls == "good-nonce" then
    if nonce_next <= #nonce_pool then
      req = nonce_pool[nonce_next].raw
      nonce_next = nonce_next + 1
    else
      inc(sent, "nonce-pool-exhausted")
      cls = "good-sig1"
    end
  elseif cls == "garbage" then
    req = garbage()
    cls = req:match("X%-Soak%-Class: (%S+)")
  elseif cls == "hostile-churn" then
    churn_n = churn_n + 1
    local h = copy_headers(templ.churn)
    -- a new origin per request: 127.(20 + thread).x.y, where nothing listens (refused at once)
    local url = string.format("http://127.%d.%d.%d:%d", 20 + (soak_tid or 0) % 200, math.floor(churn_n / 250) % 250 + 1,
                              churn_n % 250 + 1, churn_port)
    set(h, "Signature-Agent", 'sig1="' .. url .. '"')
    req = raw("/index.html", h, cls)
  elseif cls == "replay" then
    if done_n > 0 and math.random(1, 2) == 1 then
      local id = done_ring[math.random(1, math.min(done_n, #done_ring))]
      req = raw("/index.html", nonce_by_id[id].headers, "replay-live", id)
      cls = "replay-live"
    else
      cls = "replay-pre"
    end
  elseif cls == "cross" then
    cls = pick({"cross-host", "cross-sig", "cross-abs", "cross-local"})
  elseif cls == "newbot" then
    -- the bots that have joined by now (bot K at K fifths of the run); none yet: a good request
    local k = duration > 0 and math.floor((os.time() - t0) * 5 / duration) or 0
    local joined = {}
    for i = 1, math.min(k, 4) do if pools["newbot-" .. i] then joined[#joined + 1] = "newbot-" .. i end end
    if #joined > 0 then cls = pick(joined) else cls = "good-sig1" end
  end
  if not req then req = pick(pools[cls]).raw end
  inc(sent, cls)
  return req
end

function response(status, headers, body)
  local cls = headers["X-Soak-Class"] or "unlabelled"
  inc(got, cls .. "|" .. status)
  local reason = headers["X-Pqsig-Reason"]
  if reason and reason ~= "" then inc(reasons, cls:match("^[a-z]+") .. "|" .. reason) end
  if cls == "good-nonce" and status == 200 then
    done_n = done_n + 1
    done_ring[(done_n - 1) % 512 + 1] = tonumber(headers["X-Soak-Id"])
  end
end

function done(summary, latency, requests)
  local S, G, R = {}, {}, {}
  for _, t in ipairs(_G.soak_threads or {}) do
    for k, v in pairs(t:get("sent") or {}) do inc(S, k, v) end
    for k, v in pairs(t:get("got") or {}) do inc(G, k, v) end
    for k, v in pairs(t:get("reasons") or {}) do inc(R, k, v) end
  end
  local per = {}   -- class -> {sent, recv, ok, refused, other}
  local function row(c)
    per[c] = per[c] or {sent = 0, recv = 0, s200 = 0, s401 = 0, other = 0}
    return per[c]
  end
  for c, n in pairs(S) do if c ~= "nonce-pool-exhausted" then row(c).sent = n end end
  local false_accepts, good_non200, good_200, unlabelled_200 = 0, 0, 0, 0
  for k, n in pairs(G) do
    local c, st = k:match("^(.*)|(%d+)$")
    st = tonumber(st)
    local r = row(c)
    r.recv = r.recv + n
    if st == 200 then r.s200 = r.s200 + n elseif st == 401 then r.s401 = r.s401 + n else r.other = r.other + n end
    local good = c:match("^good%-") ~= nil
    if c:match("^newbot%-") then
      -- report only (see the top)
    elseif good then
      if st == 200 then good_200 = good_200 + n else good_non200 = good_non200 + n end
    elseif st == 200 then
      if c == "unlabelled" then unlabelled_200 = unlabelled_200 + n end
      false_accepts = false_accepts + n
    end
  end
  local names = {}
  for c in pairs(per) do names[#names + 1] = c end
  table.sort(names)
  for _, c in ipairs(names) do
    local r = per[c]
    io.write(string.format("SOAK_CLASS %-22s sent=%d recv=%d s200=%d s401=%d other=%d\n", c, r.sent, r.recv, r.s200,
                           r.s401, r.other))
  end
  local rn = {}
  for k in pairs(R) do rn[#rn + 1] = k end
  table.sort(rn)
  for _, k in ipairs(rn) do
    local c, why = k:match("^(.*)|(.*)$")
    io.write(string.format("SOAK_REASON %-8s %-32s %d\n", c, why, R[k]))
  end
  local e = summary.errors
  io.write(string.format("SOAK_TOTAL requests=%d seconds=%.1f connect_errors=%d read_errors=%d write_errors=%d timeouts=%d\n",
                         summary.requests, summary.duration / 1e6, e.connect, e.read, e.write, e.timeout))
  io.write(string.format("SOAK_LATENCY p50_ms=%.2f p99_ms=%.2f max_ms=%.2f\n", latency:percentile(50) / 1000,
                         latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("SOAK_NONCE_POOL_EXHAUSTED %d\n", S["nonce-pool-exhausted"] or 0))
  io.write(string.format("SOAK_GOOD_200 %d\n", good_200))
  io.write(string.format("SOAK_GOOD_NON200 %d\n", good_non200))
  io.write(string.format("SOAK_UNLABELLED_200 %d\n", unlabelled_200))
  io.write(string.format("SOAK_FALSE_ACCEPTS %d\n", false_accepts))
end
