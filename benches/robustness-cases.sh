#!/usr/bin/env bash
# Issue 12's reported inputs, each run as a whole process: its exit status,
# wall seconds and peak memory (GNU time), and the first line it printed on
# standard error. Target: each a clear error (or the right answer) within
# 2 s and 200 MB. Run from the repository after `cargo build --release`.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$PWD/target/release/swtcg-odds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Files the cases read.
steps=$(printf '"a%d",' $(seq 0 5) $(seq 0 5) $(seq 0 5) 0 1); steps=${steps%,}
att=$(for i in $(seq 0 5); do printf '{"name": "a%d", "power": 1, "health": 9},' "$i"; done); att=${att%,}
echo "{\"defender\": {\"name\": \"R\", \"power\": 1, \"health\": 99, \"keywords\": [\"Retaliate 20\"]}, \"attackers\": [$att], \"steps\": [$steps]}" > "$tmp/retaliate-plan.json"
echo "{\"defender\": {\"name\": \"R\", \"power\": 3, \"health\": 99, \"keywords\": [\"Retaliate 3\", \"Deflect 2\"]}, \"attackers\": [{\"name\": \"a0\", \"power\": 6, \"health\": 99, \"keywords\": [\"Deflect 2\"]}], \"steps\": [$(printf '"a0",%.0s' $(seq 19))\"a0\"]}" > "$tmp/deflect-plan.json"
echo "{\"defender\": {\"name\": \"R\", \"power\": 3, \"health\": 99, \"keywords\": [\"Lucky 3\"]}, \"attackers\": [{\"name\": \"a0\", \"power\": 6, \"health\": 99, \"keywords\": [\"Lucky 3\"]}], \"steps\": [$(printf '"a0",%.0s' $(seq 19))\"a0\"]}" > "$tmp/lucky-plan.json"
printf '{"0":18446744073709551615,"1":1}' > "$tmp/overflow.json"
printf '{"0":100,"1":100,"0":5}' > "$tmp/dup.json"
printf '\xef\xbb\xbf{"attacker": {"name": "A", "power": 2}, "defender": {"name": "D"}}' > "$tmp/bom.json"
printf '{"attacker": {"name": "A", "power": 2}, "defender": {"name": "D", "keywords": ["Parry 4294967295", "Parry 2"]}}' > "$tmp/wrap.json"
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
units = ",".join('{"name": "U%d", "side": "defender"}' % i for i in range(100000))
open(f"{d}/many.json", "w").write('{"attacker": {"name": "A", "power": 2}, "defender": {"name": "D"}, "others": [%s]}' % units)
row = "Name\tSet\tType\tCost\tSpeed\tPower\tHealth\tText\n"
with open(f"{d}/big.txt", "w") as f:
    f.write(row)
    line = "Unit %d\tBIG\tCharacter - Unit\t3\t30\t4\t4\tCritical Hit 1\n"
    i = 0
    while f.tell() < 50_000_000:
        f.write(line % i); i += 1
PY
mkfifo "$tmp/fifo"
run() {
  /usr/bin/time -q -f "%e s %M KB" -o "$tmp/t" "$bin" "$@" >/dev/null 2>"$tmp/err" </dev/null
  local rc=$?
  printf '%-70.70s exit %s  %s  %s\n' "$*" "$rc" "$(cat "$tmp/t")" "$(head -c 150 "$tmp/err" | head -1)"
}
run attack --power 1 --lucky 100000 --lucky-policy simple
run attack --power 1 --lucky 4294967295
run attack --power 1 --other-health 99999999999
run attack --power 3 --overkill
run cards --db tests/fixtures/lackey attack "Jango Fett (A)" "Obi-Wan Kenobi (A)" --condition ""
run table --power 1..10000
run table --power -1
run sample --trials 100000000 --power 1000
run scenario "$tmp/wrap.json"
run scenario "$tmp/bom.json"
run scenario "$tmp/many.json"
run plan "$tmp/retaliate-plan.json"
run plan "$tmp/deflect-plan.json"
run plan "$tmp/lucky-plan.json"
run verify --counts "$tmp/overflow.json" --power 1
run verify --counts "$tmp/dup.json" --power 1
run verify --counts /dev/zero --power 1
run verify --counts "$tmp/fifo" --power 1
run matchups --db "$tmp/big.txt" --format csv
run matchups --db x --page --format json
/usr/bin/time -q -f "%e s %M KB" -o "$tmp/t" "$bin" attack --power 5 >/dev/full 2>"$tmp/err"
printf '%-70.70s exit %s  %s  %s\n' "attack --power 5 > /dev/full" "$?" "$(cat "$tmp/t")" "$(head -1 "$tmp/err")"
/usr/bin/time -q -f "%e s %M KB" -o "$tmp/t" sh -c "'$bin' table --power 1..40 --crit 0..4 --format json | head -c10 >/dev/null" 2>"$tmp/err"
printf '%-70.70s exit %s  %s  %s\n' "table ... --format json | head -c10" "$?" "$(cat "$tmp/t")" "$(head -1 "$tmp/err")"
