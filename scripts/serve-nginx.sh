# shellcheck shell=bash
# scripts/serve-nginx.sh — sourced by scripts/serve-load.sh and scripts/serve-soak.sh: nginx in
# front of `pqsig serve verify` (auth_request), as docs/deploy.md configures it, on 127.0.0.1.

# serve_nginx_start DIR PORT VERIFIER AUTH_EXTRA PROTECTED_EXTRA: write DIR/nginx.conf (root DIR/www,
# /open/ unprotected, everything else behind auth_request to VERIFIER host:port; AUTH_EXTRA and
# PROTECTED_EXTRA are extra directives for the /_auth and the protected location), start nginx in
# the background (its pid in $NGINX_PID) and wait, bounded (10 s), until PORT accepts.
serve_nginx_start() {
  local dir=$1 port=$2 ver=$3 auth_extra=$4 protected_extra=$5
  local nginx; nginx=$(command -v nginx || echo /usr/sbin/nginx)
  cat > "$dir/nginx.conf" <<EOF
daemon off; master_process off; worker_processes 1; pid $dir/nginx.pid; error_log $dir/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/cb; proxy_temp_path $dir/px; fastcgi_temp_path $dir/fc; uwsgi_temp_path $dir/uw; scgi_temp_path $dir/sc;
  upstream pqsig_verify { server $ver; keepalive 32; }
  server {
    listen 127.0.0.1:$port; root $dir/www;
    location = /_auth {
      internal; proxy_pass http://pqsig_verify; proxy_pass_request_body off; proxy_set_header Content-Length "";
      proxy_set_header Host \$host:\$server_port; proxy_set_header X-Original-URI \$request_uri;
      proxy_set_header X-Original-Method \$request_method; proxy_http_version 1.1; proxy_set_header Connection "";
      $auth_extra
    }
    location /open/ { }
    location / {
      auth_request /_auth;
      $protected_extra
    }
  }
}
EOF
  "$nginx" -p "$dir" -e "$dir/nginx-error.log" -c "$dir/nginx.conf" &
  NGINX_PID=$!
  local _
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0; sleep 0.1; done
  echo "nginx did not accept on 127.0.0.1:$port within 10 s (see $dir/nginx-error.log)" >&2
  return 1
}

# serve_wait_ready FILE PID LOG [SECONDS]: wait, bounded (default 60 s), until the process PID has
# written its --ready-file FILE. Returns 1 at once if PID exits first, and on the time bound; either
# way the last lines of LOG (the process's stderr) are printed, so a failure in CI says why.
serve_wait_ready() {
  local file=$1 pid=$2 log=$3 limit=${4:-60} _
  for _ in $(seq $((limit * 10))); do
    [ -s "$file" ] && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "process $pid exited before writing $file; the end of $log:" >&2
      tail -n 40 "$log" >&2 2>/dev/null || true
      return 1
    fi
    sleep 0.1
  done
  echo "timeout (${limit} s) waiting for $file from process $pid; the end of $log:" >&2
  tail -n 40 "$log" >&2 2>/dev/null || true
  return 1
}
