"""The package's timing targets (issue: "A Python package for simulator
authors and analysts"), measured as the README reports them:

- ``import swtcg_odds``, in a fresh interpreter;
- a power-20 attack with every static keyword: the Python call, and the
  Rust call alone (``_native._rust_attack_seconds``), so the difference is
  the package's own overhead;
- ``verify`` on 10^6 counts;
- the 800-row table (power 1..40 x crit 0..4 x parry 0..3) as a DataFrame;
- the same table with every row's pmf read, and `.pmf` per entry at power 40.

Each figure is the best of several repeats of a timed loop (``timeit``), so
that a busy machine shows in the spread, not in the figure. Run it from
anywhere: the installed package is imported:

    python python/benches/bench.py
"""

import statistics
import subprocess
import sys
import timeit

import swtcg_odds
from swtcg_odds import _native

# The criterion benchmark's "every static keyword" attack (benches/benches/attack.rs).
LOADED = dict(
    power=20, accuracy=1, fury=2, crit=2, stun=1, attacker_evade=1, attacker_deflect=1,
    attacker_health=6, health=8, counters=1, armor=True, shields=1, parry=1, evade=1,
    deflect=1, retaliate=3, defender_stun=1,
)


def best(stmt, number, repeat=7):
    """Seconds per call: the best of `repeat` loops of `number` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def import_seconds(repeat=7):
    code = "import time; t = time.perf_counter(); import swtcg_odds; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(repeat)]
    return min(runs), statistics.median(runs)


def main():
    imp, imp_median = import_seconds()
    print(f"import swtcg_odds: {imp * 1e3:.1f} ms (median {imp_median * 1e3:.1f} ms)")

    pairs = swtcg_odds._pairs(LOADED)
    rust = min(_native._rust_attack_seconds(pairs, 20000) for _ in range(7))
    call = best(lambda: swtcg_odds.attack(**LOADED), 20000)
    with_mean = best(lambda: swtcg_odds.attack(**LOADED).mean, 20000)
    with_pmf = best(lambda: swtcg_odds.attack(**LOADED).pmf, 5000)
    print(f"attack, power 20, every static keyword: Rust call {rust * 1e6:.1f} µs; "
          f"attack() {call * 1e6:.1f} µs (overhead {(call - rust) * 1e6:.1f} µs); "
          f"with .mean {with_mean * 1e6:.1f} µs; with .pmf as Fractions {with_pmf * 1e6:.1f} µs")

    # 10^6 counts from the exact law itself: a passing verify.
    law = swtcg_odds.attack(power=8, crit=2, parry=1, armor=True).pmf
    counts = {k: int(p * 1_000_000) for k, p in law.items()}
    counts[0] += 1_000_000 - sum(counts.values())
    v = best(lambda: swtcg_odds.verify(counts, power=8, crit=2, parry=1, armor=True), 20)
    import numpy
    array = numpy.zeros(max(counts) + 1, dtype=numpy.int64)
    for k, c in counts.items():
        array[k] = c
    va = best(lambda: swtcg_odds.verify(array, power=8, crit=2, parry=1, armor=True), 20)
    print(f"verify, 10^6 counts: {v * 1e3:.2f} ms as a dict, {va * 1e3:.2f} ms as a numpy array")

    try:
        import pandas  # noqa: F401
    except ImportError:
        print("table as a DataFrame: pandas is not installed")
        return
    grid = dict(power=range(1, 41), crit=range(0, 5), parry=range(0, 4))
    rows = best(lambda: swtcg_odds.table(**grid), 20)
    frame = best(lambda: swtcg_odds.table(as_frame=True, **grid), 20)
    print(f"800-row table: rows {rows * 1e3:.2f} ms; DataFrame {frame * 1e3:.2f} ms")


def fractions():
    """Issue 35's targets: the 800 attacks of the table with their pmfs read
    (every Fraction made), and `.pmf` on one power-40 attack per entry."""
    grid = dict(power=range(1, 41), crit=range(0, 5), parry=range(0, 4))
    with_pmfs = best(lambda: swtcg_odds.table(pmfs=True, **grid), 20)
    entries = sum(len(r["pmf"]) for r in swtcg_odds.table(pmfs=True, **grid))
    print(f"800-row table with pmfs read: {with_pmfs * 1e3:.2f} ms ({entries} Fractions)")
    r = swtcg_odds.attack(power=40, crit=2)
    per = best(lambda: r.pmf, 5000) / len(r.pmf)
    print(f".pmf of a power-40 attack: {per * 1e6:.3f} µs an entry ({len(r.pmf)} entries)")


if __name__ == "__main__":
    main()
    fractions()
