"""Tables: rows equal the command line's table, and a DataFrame round trip."""

from fractions import Fraction

import pandas as pd
import pytest

import swtcg_odds


def test_rows_equal_the_cli(cli):
    rows = swtcg_odds.table(power=range(1, 6), crit=range(0, 3), health=4)
    expected = cli("table", "--power", "1..5", "--crit", "0..2", "--health", "4", "--format", "json")
    assert len(rows) == len(expected) == 15
    for r, e in zip(rows, expected):
        assert r["power"] == e["power"] and r["crit"] == e["crit"]
        assert r["mean"] == Fraction(e["mean"])
        assert r["p_discard"] == Fraction(e["p_discard"])


def test_dataframe_round_trip(tmp_path):
    df = swtcg_odds.table(power=range(1, 41), crit=range(0, 5), parry=range(0, 4), as_frame=True)
    assert len(df) == 800
    assert list(df.columns[:3]) == ["power", "crit", "parry"]
    rows = swtcg_odds.table(power=range(1, 41), crit=range(0, 5), parry=range(0, 4))
    assert list(df["mean"]) == [r["mean"] for r in rows]
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    back = pd.read_csv(path)
    assert list(back["power"]) == list(df["power"])
    assert [Fraction(x) for x in back["mean"]] == list(df["mean"])
    assert (back["mean_f64"] - df["mean_f64"]).abs().max() < 1e-12


def test_cards(fixtures):
    cards = swtcg_odds.Cards.load(fixtures / "lackey")
    assert len(cards) > 100
    found = cards.find("Jango")
    assert any(c["name"].startswith("Jango Fett") for c in found)
    r = cards.attack("Jango Fett (A)", "Obi-Wan Kenobi (A)")
    assert sum(r.pmf.values()) == 1
    check = cards.check()
    # Every unit card read is listed once; the sets count it either as a unit
    # that can attack or as skipped (stats set by its text), never neither.
    assert len(check["units"]) == len(cards)
    assert sum(s["units"] + s["skipped"] for s in check["sets"]) == len(cards)
    assert sum(s["skipped"] for s in check["sets"]) == len(check["skipped"])
    rows = list(cards.matchups("set:ANH", "set:ANH"))
    assert rows and all(isinstance(r["mean"], Fraction) for r in rows if r["error"] is None)
    ranked = list(cards.matchups("set:ANH", "set:ANH", ranked=True))
    assert ranked and ranked[0]["rank"] == 1


def test_matchups_stream_the_clis_rows(cli, fixtures):
    """Rows are streamed as they are solved, the same rows (in the same
    order) as `matchups --format jsonl`; stopping early ends the solve; a
    bad selector is a typed error."""
    import subprocess

    cards = swtcg_odds.Cards.load(fixtures / "lackey")
    got = list(cards.matchups("set:ANH", "set:ANH"))
    binary = cli.binary
    out = subprocess.run(
        [binary, "matchups", "--db", str(fixtures / "lackey"), "--attackers", "set:ANH",
         "--defenders", "set:ANH", "--format", "jsonl"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    import json
    want = [json.loads(line) for line in out]
    assert len(got) == len(want) > 100
    for g, w in zip(got, want):
        assert (g["attacker"], g["defender"], g["arena"]) == (w["attacker"], w["defender"], w["arena"])
        assert g["mean"] == (Fraction(w["mean"]) if w["mean"] is not None else None)
    # An iterator read once and dropped: the solve stops, nothing hangs.
    it = cards.matchups()
    assert isinstance(next(it), dict)
    del it
    with pytest.raises(swtcg_odds.Error) as e:
        next(cards.matchups("set:NOPE", "all"))
    assert "set:NOPE" in str(e.value)


def test_table_takes_every_attack_parameter_and_gives_pmfs():
    # Issue 35: the row-by-row path (choices, pmfs) gives the native
    # table's rows, in its order, and each row is attack()'s answer.
    grid = dict(crit=range(0, 3), power=range(1, 6), health=4, lucky=[0, 1])
    native = swtcg_odds.table(**grid)
    with_pmfs = swtcg_odds.table(pmfs=True, **grid)
    assert len(native) == len(with_pmfs) == 30
    for a, b in zip(native, with_pmfs):
        law = b.pop("pmf")
        assert a == b
        assert sum(law.values()) == 1
        assert sum(k * p for k, p in law.items()) == a["mean"]
    simple = swtcg_odds.table(power=range(2, 5), lucky=1, defender_lucky=1, lucky_policy="simple", pmfs=True)
    assert len(simple) == 3
    for row in simple:
        r = swtcg_odds.attack(power=row["power"], lucky=1, defender_lucky=1, lucky_policy="simple")
        assert row["mean"] == r.mean and row["pmf"] == r.pmf
    # A choice changes the answer where it should: simple against optimal.
    optimal = swtcg_odds.table(power=range(2, 5), lucky=1, defender_lucky=1)
    assert [r["mean"] for r in optimal] != [r["mean"] for r in simple]


def test_a_table_without_power_is_the_same_table_with_pmfs_or_choices():
    # A table's rows have power 1 when it is not given, whichever way the
    # table is solved (the attack-by-attack path asked for it).
    native = swtcg_odds.table(crit=range(0, 3), parry=[0, 1])
    with_pmfs = swtcg_odds.table(crit=range(0, 3), parry=[0, 1], pmfs=True)
    assert len(native) == len(with_pmfs) == 6
    for a, b in zip(native, with_pmfs):
        law = b.pop("pmf")
        assert a == b
        assert law == swtcg_odds.attack(power=1, crit=a["crit"], parry=a["parry"]).pmf
    simple = swtcg_odds.table(crit=range(0, 3), lucky=1, lucky_policy="simple")
    assert [r["mean"] for r in simple] == [
        swtcg_odds.attack(power=1, crit=c, lucky=1, lucky_policy="simple").mean for c in range(0, 3)
    ]


def test_table_fractions_are_reduced_as_python_reduces_them():
    # Issue 35: a row's Fractions are reduced in machine words (the powers
    # of 2 and 3 a dice law's denominator shares with each weight), past
    # 2^128 by big integers, and made without Fraction.__new__. Each must
    # be the Fraction Python's own gcd makes, and each float Python's
    # float() of it. Powers up to 60 cross 2^128 (6^50 > 2^128).
    rows = swtcg_odds.table(pmfs=True, power=[1, 2, 7, 20, 40, 49, 50, 60], crit=[0, 3], parry=[0, 2], health=[0, 9])
    assert len(rows) == 64
    big = 0
    for row in rows:
        r = swtcg_odds.attack(power=row["power"], crit=row["crit"], parry=row["parry"], health=row["health"] or None)
        weights, den = r.pmf_weights()
        big += den >= 2**128
        assert list(row["pmf"]) == [k for k, _ in weights]
        running = 0
        for (k, w), (cdf_k, cdf), (tail_k, tail) in zip(weights, r.cdf.items(), r.tail.items()):
            for got, want in ((row["pmf"][k], Fraction(w, den)), (cdf, Fraction(running + w, den)), (tail, Fraction(den - running, den))):
                assert type(got) is Fraction
                assert (got.numerator, got.denominator) == (want.numerator, want.denominator)
                assert hash(got) == hash(want)
            assert cdf_k == tail_k == k
            running += w
        assert running == den
        mean = Fraction(sum(k * w for k, w in weights), den)
        assert (row["mean"].numerator, row["mean"].denominator) == (mean.numerator, mean.denominator)
        assert row["mean_f64"] == float(mean) and type(row["mean_f64"]) is float
        if row["health"]:
            assert row["p_discard"] == r.p_discard and row["p_discard_f64"] == float(r.p_discard)
        else:
            assert "p_discard" not in row
    assert big > 0


@pytest.mark.parametrize("pmfs", [False, True])
def test_a_table_value_out_of_bounds_is_refused(pmfs):
    # A table's values are checked as the command line checks them (a
    # negative Critical Hit was read as 0); health 0 stays "not given".
    with pytest.raises(swtcg_odds.ParameterError) as e:
        swtcg_odds.table(power=3, crit=[1, -3], pmfs=pmfs)
    assert e.value.kind == "range"
    assert e.value.origin == {"param": "crit", "value": "-3"}
    assert len(swtcg_odds.table(power=3, health=[0, 4], pmfs=pmfs)) == 2


@pytest.mark.parametrize("enabled", [True, False])
def test_a_table_leaves_the_cycle_collector_as_it_found_it(enabled):
    # Issue 35: the cycle collector is paused while a table's Fractions
    # are made (none can be part of a cycle), and resumed only if it ran:
    # after the table, after a refused table, and never switched on for a
    # caller who had switched it off.
    import gc

    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        rows = swtcg_odds.table(pmfs=True, power=range(1, 9), crit=range(0, 2))
        assert len(rows) == 16 and all(sum(r["pmf"].values()) == 1 for r in rows)
        assert gc.isenabled() is enabled
        with pytest.raises(swtcg_odds.ParameterError):
            swtcg_odds.table(pmfs=True, power=3, crit=[1, -3])
        assert gc.isenabled() is enabled
        # The Fractions are untracked (no cycle can hold them), and a full
        # collection leaves the rows whole.
        law = rows[-1]["pmf"]
        assert not any(gc.is_tracked(f) for f in law.values())
        gc.collect()
        assert sum(rows[-1]["pmf"].values()) == 1
    finally:
        (gc.enable if was else gc.disable)()
