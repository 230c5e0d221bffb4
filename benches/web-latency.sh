#!/usr/bin/env bash
# Latency of the web API (issue 13's target): a power-20 attack with every
# static keyword, 100 sequential requests against a local `serve`, median
# and spread of curl's total time per request. Run from the repository:
#   cargo build --release && benches/web-latency.sh
set -euo pipefail
cd "$(dirname "$0")/.."
port=${PORT:-18731}
./target/release/swtcg-odds serve --port "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/api/params" >/dev/null && break; sleep 0.1; done
q="power=20&accuracy=1&fury=2&crit=2&stun=1&attacker-evade=1&attacker-deflect=1"
q="$q&armor=true&shields=1&parry=1&evade=1&deflect=1&retaliate=3&defender-stun=1&health=12&counters=2&attacker-health=8"
url="http://127.0.0.1:$port/api/attack?$q"
curl -sf "$url" >/dev/null
for _ in $(seq 100); do curl -s -o /dev/null -w '%{time_total}\n' "$url"; done |
  sort -n | awk '{t[NR] = $1 * 1000} END {printf "100 requests: median %.2f ms (min %.2f, 90th %.2f, max %.2f)\n", (t[50] + t[51]) / 2, t[1], t[90], t[NR]}'
