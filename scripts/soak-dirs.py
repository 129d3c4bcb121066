#!/usr/bin/env python3
"""Hostile key directories for the mixed soak (scripts/serve-load.sh --soak), on 127.0.0.1 only.

One listening port per behaviour (a Web Bot Auth directory agent names an origin, so each
behaviour is its own origin):
  hang    accepts, reads the request, never answers (holds the connection until the peer goes or
          --hold-seconds pass)
  junk    answers 200 with a signed directory whose body is not JSON
  huge    answers 200 announcing 16 MiB and sends it (the verifier's body cap must cut it)
  nested  answers 200 with a signed directory whose body is JSON nested 100,000 deep
  liar    answers 200 with a signed directory listing the stranger's key twice: under its own
          thumbprint and under the good bot's (--good-kid): a lying kid
The directory responses are signed by the stranger's key (--stranger-key) for their own
authority (127.0.0.1:PORT) with `pqsig directory sign`, so the verifier gets past the signature
check to the body. Writes "name port" lines to --ready-file once listening.

Bounded: the process exits after --max-seconds (or on SIGTERM, writing --counts-file); at most --max-conns connections are served at
once (more are closed at once); every socket has a send/receive timeout.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

HUGE_BYTES = 16 * 1024 * 1024


def signed_directory(args, body, port):
    """`pqsig directory sign` of body for 127.0.0.1:port -> the HTTP response, ready to send."""
    r = subprocess.run([args.pqsig, "directory", "sign", "--key", args.stranger_key, "--authority",
                        f"127.0.0.1:{port}"], input=body, capture_output=True, timeout=30)
    if r.returncode != 0:
        raise SystemExit(f"pqsig directory sign exited {r.returncode}: {r.stderr.decode(errors='replace')}")
    return ready_response(r.stdout)


def ready_response(raw):
    """An HTTP response -> bytes with Content-Length and Connection: close set."""
    for sep in (b"\r\n\r\n", b"\n\n"):
        cut = raw.find(sep)
        if cut >= 0:
            head, body = raw[:cut], raw[cut + len(sep):]
            break
    else:
        raise SystemExit("pqsig directory sign: no header/body separator")
    lines = [l.rstrip(b"\r") for l in head.split(b"\n")]
    keep = [lines[0]] + [l for l in lines[1:] if l and not l.lower().startswith((b"content-length:", b"connection:"))]
    keep += [b"Content-Length: " + str(len(body)).encode(), b"Connection: close"]
    return b"\r\n".join(keep) + b"\r\n\r\n" + body


def read_request(conn, limit=65536):
    data = b""
    while b"\r\n\r\n" not in data and len(data) < limit:
        try:
            chunk = conn.recv(8192)
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


class Behaviour:
    def __init__(self, name, args):
        self.name = name
        self.args = args
        self.prepared = None

    def prepare(self, port, stranger_pub):
        if self.name == "junk":
            body = b"{{{ not json !!! \x00\xff"
        elif self.name == "nested":
            body = b'{"keys":' + b"[" * 100000 + b"]" * 100000 + b"}"
        elif self.name == "liar":
            own = dict(stranger_pub)
            lie = dict(stranger_pub, kid=self.args.good_kid)
            body = json.dumps({"keys": [own, lie]}).encode()
        else:
            return
        self.prepared = signed_directory(self.args, body, port)

    def serve(self, conn, deadline):
        if read_request(conn) is None:
            return
        if self.name == "hang":
            conn.settimeout(0.2)
            end = min(deadline, time.monotonic() + self.args.hold_seconds)
            while time.monotonic() < end:  # until the peer gives up (recv returns b"") or the bound
                try:
                    if conn.recv(4096) == b"":
                        return
                except socket.timeout:
                    continue
                except OSError:
                    return
            return
        if self.name == "huge":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/http-message-signatures-directory+json\r\n"
                         b"Content-Length: " + str(HUGE_BYTES).encode() + b"\r\nConnection: close\r\n\r\n")
            chunk = b"x" * 65536
            for _ in range(HUGE_BYTES // len(chunk)):
                if time.monotonic() > deadline:
                    return
                conn.sendall(chunk)  # raises once the verifier has cut the transfer
            return
        conn.sendall(self.prepared)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pqsig", required=True, help="the pqsig binary (signs the directory responses)")
    ap.add_argument("--stranger-key", required=True, help="the stranger's private JWK")
    ap.add_argument("--good-kid", required=True, help="the good bot's key thumbprint (the liar's lie)")
    ap.add_argument("--ready-file", required=True)
    ap.add_argument("--counts-file", help="written at exit: 'name connections' lines")
    ap.add_argument("--max-seconds", type=float, default=120.0)
    ap.add_argument("--hold-seconds", type=float, default=10.0)
    ap.add_argument("--max-conns", type=int, default=64)
    args = ap.parse_args()

    deadline = time.monotonic() + args.max_seconds
    lock = threading.Lock()
    counts = {}
    slots = threading.BoundedSemaphore(args.max_conns)
    stranger_pub = json.loads(subprocess.run([args.pqsig, "pubkey", args.stranger_key], capture_output=True,
                                             check=True, timeout=30).stdout)
    listeners = []
    for name in ("hang", "junk", "huge", "nested", "liar"):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(128)
        s.settimeout(0.2)
        beh = Behaviour(name, args)
        beh.prepare(s.getsockname()[1], stranger_pub)
        listeners.append((beh, s))
        counts[name] = 0

    def handle(beh, conn):
        try:
            conn.settimeout(5.0)
            beh.serve(conn, deadline)
        except OSError:
            pass  # the verifier cut the connection (body cap, timeout): expected
        finally:
            try:
                conn.close()
            finally:
                slots.release()

    def accept_loop(beh, s):
        while time.monotonic() < deadline:
            try:
                conn, _ = s.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with lock:
                counts[beh.name] += 1
            if not slots.acquire(blocking=False):
                conn.close()  # over the connection bound
                continue
            threading.Thread(target=handle, args=(beh, conn), daemon=True).start()

    threads = [threading.Thread(target=accept_loop, args=(b, s), daemon=True) for b, s in listeners]
    for t in threads:
        t.start()
    tmp = args.ready_file + ".tmp"
    with open(tmp, "w") as f:
        for b, s in listeners:
            f.write(f"{b.name} {s.getsockname()[1]}\n")
    os.replace(tmp, args.ready_file)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    while not stop.is_set() and time.monotonic() < deadline:
        stop.wait(0.2)
    if args.counts_file:
        with open(args.counts_file, "w") as f:
            for name, n in counts.items():
                f.write(f"{name} {n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
