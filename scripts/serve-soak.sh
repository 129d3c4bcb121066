#!/usr/bin/env bash
# The mixed soak of issue 20 ("Keep it true"), run as `scripts/serve-load.sh --soak`:
# nginx (auth_request) -> pqsig serve verify --authority 127.0.0.1:PORT, a good bot whose keys come
# from `pqsig serve directory`, and strangers whose directories hang, answer junk, 16 MiB, JSON
# nested 100,000 deep or lie about a key's kid (scripts/soak-dirs.py), all on 127.0.0.1.
# One wrk (scripts/soak.lua) mixes per request: the good bot's signed requests, garbage
# signatures, requests naming hostile agents, replays and cross-site signatures, and counts the
# answers per class; four more bots join during the run (report only: how long a bot whose
# directory is not cached yet is refused); a second wrk samples /healthz of the verifier (50 per
# second); the verifier's RSS and nonce-store size are read every second.
# Fails (exit 1) on any false accept (a 200 for a request that must be refused), any good-bot
# request not answered 200, a dead verifier, health p99 >= 10 ms or RSS not flat (below).
# Usage: scripts/serve-load.sh --soak [BUILD_DIR] [DURATION_S] [CONNECTIONS]
# Environment: SOAK_CHECK_HEALTH=0 / SOAK_CHECK_RSS=0 (report those only), SOAK_KEEP_DIR=1 (keep
# the logs), SOAK_DIR_TIMEOUT_MS / SOAK_NEGATIVE_TTL (the verifier's directory timeout, default
# 500 ms, and --negative-ttl, default 1 s: hostile directories asked again every second), SOAK_NONCES
# (nonce'd good requests to pre-sign, default 600 per second of run), SOAK_SEED (wrk's draws).
# Figures and what they mean: docs/deploy.md, "Mixed soak".
# Every wait is bounded; every process started here is stopped on exit (and on SIGTERM / SIGINT).
set -euo pipefail
BUILD=${1:-build}
DUR=${2:-10}
CONN=${3:-16}
HERE=$(cd "$(dirname "$0")" && pwd)
PQSIG=$(cd "$BUILD" && pwd)/pqsig
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
WRK=$(command -v wrk || true)
# shellcheck source=scripts/serve-nginx.sh
source "$HERE/serve-nginx.sh"
[ -x "$PQSIG" ] || { echo "soak: $PQSIG not found (build pqsig_cli)" >&2; exit 2; }
[ -x "$NGINX" ] || { echo "soak: nginx not installed" >&2; exit 2; }
[ -n "$WRK" ] || { echo "soak: wrk not installed" >&2; exit 2; }
case "$DUR$CONN" in *[!0-9]*) echo "soak: DURATION_S and CONNECTIONS are whole numbers" >&2; exit 2 ;; esac
[ "$DUR" -ge 1 ] && [ "$DUR" -le 3600 ] || { echo "soak: DURATION_S must be 1..3600" >&2; exit 2; }
WRK_THREADS=2
[ "$CONN" -ge "$WRK_THREADS" ] || CONN=$WRK_THREADS
T=$(mktemp -d /tmp/pqsig-soak-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -n "${SOAK_KEEP_DIR:-}" ]; then echo "soak: kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT
free_port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()'; }
die() { echo "soak: $*" >&2; exit 2; }

# ------------------------------------------------------------------ keys and services
"$PQSIG" keygen --alg ed25519 -o "$T/ed.jwk"
"$PQSIG" keygen --alg ml-dsa-44 -o "$T/ml.jwk"
"$PQSIG" keygen --alg ed25519 -o "$T/stranger.jwk"
kid_of() { "$PQSIG" pubkey --thumbprint "$1"; }
GOOD_KID=$(kid_of "$T/ed.jwk")
STRANGER_KID=$(kid_of "$T/stranger.jwk")

"$PQSIG" serve directory --listen 127.0.0.1:0 --authority 127.0.0.1 --key "$T/ed.jwk" --key "$T/ml.jwk" \
  --ready-file "$T/dir.ready" 2>"$T/dir.log" &
DPID=$!
pids+=($DPID)
python3 "$HERE/soak-dirs.py" --pqsig "$PQSIG" --stranger-key "$T/stranger.jwk" --good-kid "$GOOD_KID" \
  --ready-file "$T/hostile.ready" --counts-file "$T/hostile.counts" --max-seconds $((DUR + 120)) \
  2>"$T/hostile.log" &
HPID=$!
pids+=("$HPID")
NPORT=$(free_port)
PROTECTED="127.0.0.1:$NPORT"
# The protected name only; --negative-ttl 1 (default here) so hostile directories are asked again every second.
"$PQSIG" serve verify --listen 127.0.0.1:0 --authority "$PROTECTED" --insecure-allow-http --allow-private-directories \
  --threads 2 --negative-ttl "${SOAK_NEGATIVE_TTL:-1}" --directory-timeout-ms "${SOAK_DIR_TIMEOUT_MS:-500}" --ready-file "$T/ver.ready" 2>"$T/ver.log" &
VPID=$!
pids+=("$VPID")
# Four more well-behaved bots, not fetched before they join the run (report only: newbot-K).
for k in 1 2 3 4; do
  "$PQSIG" keygen --alg ed25519 -o "$T/new$k.jwk"
  "$PQSIG" serve directory --listen 127.0.0.1:0 --authority 127.0.0.1 --key "$T/new$k.jwk" \
    --ready-file "$T/new$k.ready" 2>"$T/new$k.log" &
  pids+=("$!")
  NEWPID[$k]=$!
done
# Each wait is bounded (60 s) and ends at once, with the process's log, if the process died.
serve_wait_ready "$T/dir.ready" "$DPID" "$T/dir.log" || die "the good bot's directory did not start"
serve_wait_ready "$T/ver.ready" "$VPID" "$T/ver.log" || die "the verifier did not start"
serve_wait_ready "$T/hostile.ready" "$HPID" "$T/hostile.log" || die "the hostile directories did not start"
for k in 1 2 3 4; do serve_wait_ready "$T/new$k.ready" "${NEWPID[$k]}" "$T/new$k.log" || die "new bot $k did not start"; done
DIR="http://$(cat "$T/dir.ready")"
VER=$(cat "$T/ver.ready")
hport() { awk -v n="$1" '$1==n {print $2}' "$T/hostile.ready"; }
CHURN_PORT=$(hport hang)  # churn origins are 127.20+.x.y on this port: nothing listens there

mkdir -p "$T/www/open"
echo hello > "$T/www/index.html"; echo open > "$T/www/open/index.html"
# One server block, no strict default_server: every Host reaches the verifier, whose --authority
# alone refuses other sites. nginx echoes the soak's class header so wrk can count per class.
serve_nginx_start "$T" "$NPORT" "$VER" 'proxy_connect_timeout 2s; proxy_read_timeout 10s;' \
  'auth_request_set $pqsig_reason $upstream_http_x_pqsig_reason;
      add_header X-Pqsig-Reason $pqsig_reason always;
      add_header X-Soak-Class $http_x_soak_class always;
      add_header X-Soak-Id $http_x_soak_id always;' || die "nginx did not start"
pids+=("$NGINX_PID")

# ------------------------------------------------------------------ the requests
DATA="$T/requests.txt"
: > "$DATA"
rec() { { echo "%%"; echo "class $1${2:+ $2}"; cat; } >> "$DATA"; }
# signed HOST [pqsig http sign args]: the signed request's header lines (no CR)
signed() {
  local host=$1; shift
  printf 'GET /index.html HTTP/1.1\r\nHost: %s\r\n\r\n' "$host" | "$PQSIG" http sign --expires 3600 "$@" |
    tr -d '\r' | grep -E '^(Host|Signature|Signature-Input|Signature-Agent):'
}
# custom KEY HOST SIGNATURE_AGENT KEYID: a sig1 label covering @authority and the sig1 member,
# with the keyid given (not the key's own thumbprint): the signature base from `pqsig http base`,
# signed with `pqsig sign`.
NOW=$(date +%s)
custom() {
  local key=$1 host=$2 agent=$3 kid=$4 params base sig
  params="(\"@authority\" \"signature-agent\";key=\"sig1\");created=$NOW;expires=$((NOW + 3600));keyid=\"$kid\";alg=\"ed25519\";tag=\"web-bot-auth\""
  base=$(printf 'GET /index.html HTTP/1.1\r\nHost: %s\r\nSignature-Agent: %s\r\n\r\n' "$host" "$agent" |
         "$PQSIG" http base --params "$params")
  sig=$(printf '%s' "$base" | "$PQSIG" sign --key "$key" -)
  printf 'Host: %s\nSignature-Agent: %s\nSignature-Input: sig1=%s\nSignature: sig1=:%s:\n' "$host" "$agent" "$params" "$sig"
}
GOOD=(--agent "$DIR" --key "sig1=$T/ed.jwk")
GOOD2=(--agent "$DIR" --key "sig1=$T/ed.jwk" --key "sig2=$T/ml.jwk")
signed "$PROTECTED" --no-nonce "${GOOD[@]}" | tee "$T/templ-sig1" | rec templ-sig1
signed "$PROTECTED" --no-nonce "${GOOD2[@]}" | rec templ-sig12
for _ in 1 2; do
  signed "$PROTECTED" --no-nonce "${GOOD[@]}" | rec good-sig1
  signed "$PROTECTED" --no-nonce "${GOOD2[@]}" | rec good-sig12
done
for name in hang junk huge nested; do
  signed "$PROTECTED" --no-nonce --agent "http://127.0.0.1:$(hport $name)" --key "sig1=$T/stranger.jwk" | rec "hostile-$name"
done
signed "$PROTECTED" --no-nonce --agent "http://127.20.0.1:$CHURN_PORT" --key "sig1=$T/stranger.jwk" | rec templ-churn
LIAR="http://127.0.0.1:$(hport liar)"
# The stranger's key, signed under the good bot's thumbprint, at the liar (which files it there).
custom "$T/stranger.jwk" "$PROTECTED" "sig1=\"$LIAR\"" "$GOOD_KID" | rec hostile-liar-kid
# The stranger's label covers the good bot's member; the stranger's own directory is an uncovered
# second member (issue 20 #5: a key comes only from the agent its own label covers).
custom "$T/stranger.jwk" "$PROTECTED" "sig1=\"$DIR\", sig2=\"$LIAR\"" "$STRANGER_KID" | rec hostile-cross-agent
ATTACKER="attacker.example:$NPORT"
signed "$ATTACKER" --no-nonce "${GOOD[@]}" > "$T/attacker"
rec cross-host < "$T/attacker"
sed "s/^Host: .*/Host: $PROTECTED/" "$T/attacker" | rec cross-sig
rec cross-abs "http://$PROTECTED/index.html" < "$T/attacker"
signed "localhost:$NPORT" --no-nonce "${GOOD[@]}" | rec cross-local
for k in 1 2 3 4; do
  signed "$PROTECTED" --no-nonce --agent "http://$(cat "$T/new$k.ready")" --key "sig1=$T/new$k.jwk" | rec "newbot-$k"
done

# Nonce'd good requests, each to be sent once: `pqsig http sign` gives one (its nonce and base),
# the others differ in the nonce only and are signed in one `pqsig batch` run. The first
# REPLAY_PRE are sent once now (each must be 200) and replayed during the soak (class replay-pre).
NONCES=${SOAK_NONCES:-$((DUR * 600 + 200))}
REPLAY_PRE=40
signed "$PROTECTED" "${GOOD[@]}" > "$T/nonce-templ"
python3 - "$PQSIG" "$T/nonce-templ" "$T/ed.jwk" "$NONCES" "$REPLAY_PRE" "$NPORT" "$DATA" <<'PY'
import base64, http.client, json, os, re, subprocess, sys
pqsig, templ_file, key_file, count, pre, nport, data = sys.argv[1:8]
count, pre = int(count), int(pre)
headers = [l.split(": ", 1) for l in open(templ_file).read().splitlines() if l]
sig_input = dict(headers)["Signature-Input"]
nonce0 = re.search(r'nonce="([^"]*)"', sig_input).group(1)
req = "GET /index.html HTTP/1.1\r\n" + "".join(f"{n}: {v}\r\n" for n, v in headers) + "\r\n"
base = subprocess.run([pqsig, "http", "base"], input=req.encode(), capture_output=True, check=True,
                      timeout=60).stdout.rstrip(b"\n")
assert base.count(nonce0.encode()) == 1, "the nonce appears once in the signature base"
d = json.load(open(key_file))["d"]
sk = base64.urlsafe_b64decode(d + "=" * (-len(d) % 4)).hex()
nonces = [base64.b64encode(os.urandom(64)).decode() for _ in range(count)]
lines = "".join(json.dumps({"op": "sign", "alg": "ed25519", "sk": sk, "id": i,
                            "msg": base.replace(nonce0.encode(), n.encode()).hex()}) + "\n" for i, n in enumerate(nonces))
out = subprocess.run([pqsig, "batch"], input=lines.encode(), capture_output=True, check=True,
                     timeout=300).stdout.decode().splitlines()
assert len(out) == count, f"pqsig batch answered {len(out)} of {count}"
recs, burn = [], []
for line in out:
    r = json.loads(line)
    i = r["id"]
    sig = base64.b64encode(bytes.fromhex(r["sig"])).decode()
    h = [(n, v.replace(nonce0, nonces[i]) if n == "Signature-Input" else v) for n, v in headers if n != "Signature"]
    h.append(("Signature", f"sig1=:{sig}:"))
    cls = "replay-pre" if i < pre else "good-nonce"
    recs.append("%%\nclass " + cls + "\n" + "".join(f"{n}: {v}\n" for n, v in h))
    if i < pre:
        burn.append(h)
with open(data, "a") as f:
    f.write("".join(recs))
bad = 0
for h in burn:  # sent once now: each must be accepted (this also proves the generated signatures)
    c = http.client.HTTPConnection("127.0.0.1", int(nport), timeout=10)
    c.putrequest("GET", "/index.html", skip_host=True, skip_accept_encoding=True)
    for n, v in h:
        c.putheader(n, v)
    c.endheaders()
    r = c.getresponse()
    r.read()
    if r.status != 200:
        bad += 1
        print(f"replay-pre burn: {r.status} {r.getheader('X-Pqsig-Reason')}", file=sys.stderr)
    c.close()
sys.exit(1 if bad else 0)
PY

# Controls before the run (each must hold, or the soak would prove nothing):
probe() {  # probe FILE_WITH_HEADER_LINES -> HTTP status through nginx
  local args=() l
  while IFS= read -r l; do [ -n "$l" ] && args+=(-H "$l"); done < "$1"
  curl -s -o /dev/null -w '%{http_code}' --max-time 10 "http://$PROTECTED/index.html" "${args[@]}"
}
expect() {  # expect WANT WHAT FILE
  local got; got=$(probe "$3")
  [ "$got" = "$1" ] || die "control failed: $2 answered $got, expected $1 (logs: SOAK_KEEP_DIR=1)"
}
expect 200 "the good bot's sig1 request" "$T/templ-sig1"
custom "$T/ed.jwk" "$PROTECTED" "sig1=\"$DIR\"" "$GOOD_KID" > "$T/c1"
expect 200 "a request signed the way the liar requests are, by the good bot" "$T/c1"
custom "$T/stranger.jwk" "$PROTECTED" "sig1=\"$LIAR\"" "$STRANGER_KID" > "$T/c2"
expect 200 "the stranger's honest request to its own (liar) directory" "$T/c2"
expect 401 "an unsigned request" /dev/null

# ------------------------------------------------------------------ the run
metric() { curl -s --max-time 5 "http://$VER/metrics" | awk -v k="$1" '$1==k {print $2}'; }
cat > "$T/health.lua" <<'EOF'
function delay() return 20 end
function done(s, lat, req)
  local e = s.errors
  io.write(string.format("HEALTH requests=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d non2xx=%d\n", s.requests,
    lat:percentile(50) / 1000, lat:percentile(99) / 1000, lat.max / 1000, e.connect + e.read + e.write + e.timeout, e.status))
end
EOF
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
( for _ in $(seq $((DUR + 2))); do  # RSS kB and the nonce store's entries, once a second
    r=$(awk '/VmRSS/ {print $2}' "/proc/$VPID/status" 2>/dev/null) || break
    echo "$r $(metric pqsig_nonce_store_entries)"
    sleep 1
  done ) > "$T/rss.txt" &
RSS_PID=$!
pids+=("$RSS_PID")
"$WRK" -t1 -c1 -d"${DUR}s" --timeout 5s -s "$T/health.lua" "http://$VER/healthz" > "$T/health.out" 2>&1 &
HEALTH_PID=$!
pids+=("$HEALTH_PID")
START=$(date +%s)
SOAK_WRK_THREADS=$WRK_THREADS "$WRK" -t$WRK_THREADS -c"$CONN" -d"${DUR}s" --timeout 10s -s "$HERE/soak.lua" \
  "http://$PROTECTED/" -- "$DATA" "$CHURN_PORT" "$DUR" > "$T/wrk.out" 2>&1 &
WRK_PID=$!
pids+=("$WRK_PID")
wait "$WRK_PID" || { cat "$T/wrk.out" >&2; die "wrk failed"; }
wait "$HEALTH_PID" || true
wait "$RSS_PID" || true
ELAPSED=$(( $(date +%s) - START ))
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
ALIVE=yes; kill -0 "$VPID" 2>/dev/null || ALIVE=no
curl -s --max-time 5 "http://$VER/metrics" > "$T/metrics.txt" || true
kill -TERM "$HPID" 2>/dev/null || true
for _ in $(seq 50); do kill -0 "$HPID" 2>/dev/null || break; sleep 0.1; done

# ------------------------------------------------------------------ summary
val() { awk -v k="$1" '$1==k {print $2}' "$T/wrk.out"; }
FALSE_ACCEPTS=$(val SOAK_FALSE_ACCEPTS)
GOOD_NON200=$(val SOAK_GOOD_NON200)
GOOD_200=$(val SOAK_GOOD_200)
[ -n "$FALSE_ACCEPTS" ] && [ -n "$GOOD_NON200" ] || { cat "$T/wrk.out" >&2; die "no soak summary from wrk"; }
read -r H_P50 H_P99 H_MAX H_N H_ERR < <(awk '/^HEALTH/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  print v["p50_ms"], v["p99_ms"], v["max_ms"], v["requests"], v["errors"] + v["non2xx"] }' "$T/health.out")
[ -n "${H_P99:-}" ] || { cat "$T/health.out" >&2; die "no health summary from wrk"; }
read -r RSS_START RSS_MAX RSS_END RSS_THIRD RSS_N N_THIRD N_END < <(awk '{ v[NR] = $1; n[NR] = $2 + 0; if ($1 > m) m = $1 }
  END { t = int(NR / 3); if (t < 1) t = 1; print v[1], m, v[NR], v[t], NR, n[t], n[NR] }' "$T/rss.txt")
# Flat: from a third into the run to the end, at most 10 % + 4 MiB more, plus 1 KiB per nonce the
# replay store took on meanwhile (it grows by design: every nonce is kept for --nonce-retention,
# 900 s, bounded by --nonce-store-entries).
RSS_FLAT=$(awk -v a="$RSS_THIRD" -v b="$RSS_END" -v n="$((N_END - N_THIRD))" 'BEGIN { print (b <= a * 1.10 + 4096 + n) ? "yes" : "no" }')

echo "== mixed soak: ${DUR}s, wrk -t$WRK_THREADS -c$CONN through nginx $("$NGINX" -v 2>&1 | sed 's/.*\///') -> pqsig serve verify (2 threads), $(nproc) cores"
echo "load average (1/5/15 min): before $LOAD_BEFORE, after $LOAD_AFTER (elapsed ${ELAPSED}s)"
grep -E '^SOAK_(CLASS|REASON|TOTAL|LATENCY|NONCE)' "$T/wrk.out"
awk '$1 == "SOAK_CLASS" && $2 ~ /^newbot-/ { split($5, a, "="); split($4, r, "="); printf "new bot %s (joins %s/5 into the run; report only): %d answered, %d of them 200\n", substr($2, 8), substr($2, 8), r[2], a[2] }' "$T/wrk.out"
echo "hostile directory connections: $(tr '\n' ' ' < "$T/hostile.counts" 2>/dev/null || echo '(none recorded)')"
echo "verifier metrics after: $(grep -E '^pqsig_directory_kid_mismatch_total |^pqsig_directory_fetch_errors_total |^pqsig_nonce_store_entries |^pqsig_nonce_store_evicted_total ' "$T/metrics.txt" | tr '\n' ' ')"
grep -E '^pqsig_limit_hits_total' "$T/metrics.txt" | sed 's/^/  /' || true
echo "health /healthz (verifier direct, 50/s): n=$H_N p50 ${H_P50} ms, p99 ${H_P99} ms, max ${H_MAX} ms, errors $H_ERR"
echo "verifier RSS kB: start $RSS_START, max $RSS_MAX, end $RSS_END (a third in: $RSS_THIRD; $RSS_N samples); flat: $RSS_FLAT"
echo "nonce store entries: a third in $N_THIRD, end $N_END"
echo "verifier alive after the run: $ALIVE"
echo "SOAK_SUMMARY false_accepts=$FALSE_ACCEPTS good_200=$GOOD_200 good_non200=$GOOD_NON200 health_p50_ms=$H_P50 health_p99_ms=$H_P99 rss_start_kb=$RSS_START rss_max_kb=$RSS_MAX rss_end_kb=$RSS_END rss_flat=$RSS_FLAT alive=$ALIVE"

fail=()
[ "$FALSE_ACCEPTS" = 0 ] || fail+=("$FALSE_ACCEPTS false accept(s)")
[ "$GOOD_NON200" = 0 ] || fail+=("$GOOD_NON200 good-bot request(s) not answered 200")
[ "${GOOD_200:-0}" -gt 0 ] || fail+=("no good-bot request answered")
[ "$ALIVE" = yes ] || fail+=("the verifier died")
if [ "${SOAK_CHECK_HEALTH:-1}" = 1 ] && awk -v p="$H_P99" 'BEGIN { exit !(p >= 10) }'; then fail+=("health p99 ${H_P99} ms >= 10 ms"); fi
if [ "${SOAK_CHECK_HEALTH:-1}" = 1 ] && [ "${H_ERR:-0}" != 0 ]; then fail+=("$H_ERR health probe(s) failed"); fi
if [ "${SOAK_CHECK_RSS:-1}" = 1 ] && [ "$RSS_FLAT" != yes ]; then fail+=("RSS not flat"); fi
if [ ${#fail[@]} -gt 0 ]; then
  printf 'SOAK RESULT: FAIL (%s)\n' "$(IFS=';'; echo "${fail[*]}")"
  awk '$1 == "SOAK_CLASS" { ok = 0; for (i = 3; i <= NF; i++) if ($i ~ /^s200=/) ok = substr($i, 6) + 0
    if ($2 !~ /^good-/ && ok > 0) print "  false accepts in " $2 ": " ok }' "$T/wrk.out"
  exit 1
fi
echo "SOAK RESULT: PASS"
