#!/usr/bin/env python3
"""Load test of `swtcg-odds serve` (issue 20): 100 concurrent heavy
attacks, while a probe asks for the page every 100 ms.

Reports how each heavy request was answered (every one must be 200 or 503,
none may time out) and the slowest answer to the page (target: under 1 s).
Run from the repository after `cargo build --release`:

    python3 benches/web-load.py [--db ../shared/reference/lackey] [--clients 100]

Standard library only. Exit status 0 when the targets hold, 1 otherwise.
"""
import argparse
import http.client
import os
import subprocess
import sys
import threading
import time

HEAVY = "/api/attack?power=100&lucky=8&defender-lucky=8&crit=2&parry=1"


def request(port, path, timeout):
    """(status, seconds) of one GET, status 0 on a client time-out."""
    start = time.monotonic()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        c.close()
        return r.status, time.monotonic() - start
    except Exception:
        return 0, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", default=None)
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "swtcg-odds"))
    args = ap.parse_args()
    cmd = [args.bin, "serve", "--port", "0"]
    if args.db:
        cmd += ["--db", args.db]
    server = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    port = None
    for line in server.stderr:
        if "serving http://" in line:
            port = int(line.split("serving http://")[1].split("/")[0].rsplit(":", 1)[1])
            break
    if port is None:
        print("the server did not start", file=sys.stderr)
        return 1
    threading.Thread(target=lambda: server.stderr.read(), daemon=True).start()
    statuses = []
    lock = threading.Lock()

    def heavy():
        s, t = request(port, HEAVY, 60)
        with lock:
            statuses.append((s, t))

    probes = []
    done = threading.Event()

    def probe():
        while not done.is_set():
            s, t = request(port, "/", 5)
            probes.append((s, t))
            time.sleep(0.1)

    p = threading.Thread(target=probe)
    p.start()
    start = time.monotonic()
    clients = [threading.Thread(target=heavy) for _ in range(args.clients)]
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    elapsed = time.monotonic() - start
    done.set()
    p.join()
    server.kill()
    by = {}
    for s, _ in statuses:
        by[s] = by.get(s, 0) + 1
    slowest = max(t for _, t in statuses)
    probe_ok = all(s == 200 for s, _ in probes)
    probe_max = max(t for _, t in probes)
    print(f"{args.clients} concurrent heavy attacks ({HEAVY}) in {elapsed:.1f} s")
    print("  answers: " + ", ".join(f"{s or 'time-out'}: {n}" for s, n in sorted(by.items())))
    print(f"  slowest answer: {slowest:.2f} s")
    print(f"  page probes: {len(probes)}, all 200: {probe_ok}, slowest {probe_max * 1000:.0f} ms")
    ok = set(by) <= {200, 503} and probe_ok and probe_max < 1.0
    print("targets " + ("held" if ok else "MISSED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
