#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of whole processes: stable on a
# shared machine, where wall times are not. Prints one line per case:
# instructions, then the case. Needs valgrind and a release build:
#
#   cargo build --release && cargo build --release -p swtcg-odds-bench --bin table-floor
#   benches/instructions.sh [--all]
#
# The floor for start-up is an empty Rust binary printing one line,
# compiled here with rustc -O.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/swtcg-odds
[ -x "$BIN" ] || { echo "build first: cargo build --release" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf 'fn main() { println!("swtcg-odds 0.1.0"); }\n' > "$TMP/empty.rs"
rustc -O -o "$TMP/empty" "$TMP/empty.rs"

count() {
  valgrind --tool=callgrind --callgrind-out-file="$TMP/out" "$@" >/dev/null 2>"$TMP/log"
  local n
  n=$(grep -E 'Collected|refs:' "$TMP/log" | tail -1 | tr -d ',' | awk '{print $NF}')
  printf '%12s  %s\n' "$n" "$*"
}

count "$TMP/empty"
count "$BIN" --version
count "$BIN" attack --power 3
count "$BIN" attack --power 8 --crit 2 --parry 1 --json
count "$BIN" table
count "$BIN" table --power 1..40 --crit 0..4 --parry 0..3 --format json
# The table's floor: a program of its own (benches/src/bin/table-floor.rs,
# plain u128, no engine) printing the same bytes.
FLOOR=target/release/table-floor
if [ -x "$FLOOR" ]; then
  "$BIN" table --power 1..40 --crit 0..4 --parry 0..3 --format json > "$TMP/table.json"
  "$FLOOR" > "$TMP/floor.json"
  cmp -s "$TMP/table.json" "$TMP/floor.json" || { echo "the floor program's output differs from the table's" >&2; exit 1; }
  count "$FLOOR"
else
  echo "(the floor: cargo build --release -p swtcg-odds-bench --bin table-floor)" >&2
fi
count "$BIN" attack --power 20 --lucky 1
count "$BIN" attack --power 40 --lucky 1
count "$BIN" attack --power 20 --lucky 3 --defender-lucky 3
count "$BIN" attack --power 40 --lucky 3 --defender-lucky 3
# Twenty rows rolling the same dice: the roll's starting laws are made once
# in the process and shared (issue 35).
count "$BIN" table --power 40 --lucky 1 --crit 0..4 --parry 0..3
# The card reader: every row of the sixteen fixture sets read.
count "$BIN" cards check --db tests/fixtures/sets/more
# The rankings of the shared pool take a few minutes under callgrind:
# with --all only.
if [ "${1:-}" = --all ] && [ -d ../shared/reference/lackey ]; then
  count "$BIN" matchups --db ../shared/reference/lackey --rank
fi
