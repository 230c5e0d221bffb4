"""A simulator's test suite in one line: a Monte Carlo simulator written
in plain Python passes `verify`, and the same simulator with a planted bug
fails it, with a readable message."""

import collections
import random

import numpy as np
import pytest

import swtcg_odds

ATTACK = dict(power=8, crit=2, parry=1, armor=True)


def simulate(trials, seed, crit_per_six=False):
    """Power 8, Critical Hit 2, against Armor and Parry 1: hits on 5+,
    +2 for any natural 6 (the planted bug: +2 for each 6), Parry 1 on any 1."""
    rng = random.Random(seed)
    counts = collections.Counter()
    for _ in range(trials):
        faces = [rng.randint(1, 6) for _ in range(8)]
        dmg = sum(1 for f in faces if f >= 5)
        sixes = faces.count(6)
        if sixes:
            dmg += 2 * (sixes if crit_per_six else 1)
        if 1 in faces:
            dmg = max(0, dmg - 1)
        counts[dmg] += 1
    return counts


def test_a_right_simulator_passes():
    counts = simulate(100_000, seed=7)
    v = swtcg_odds.verify(counts, **ATTACK)
    assert v, v
    assert v.consistent and v.p_value >= v.alpha
    assert v.dof > 3


def test_a_planted_bug_fails_with_a_readable_message():
    counts = simulate(100_000, seed=7, crit_per_six=True)
    v = swtcg_odds.verify(counts, **ATTACK)
    assert not v
    with pytest.raises(AssertionError) as e:
        assert v, v.verdict
    assert "DISAGREES" in str(e.value) or "FAIL" in str(e.value)
    assert v.worst and v.worst[0][0] >= 0
    assert "DISAGREES" in repr(v) or "FAIL" in repr(v)


def test_counts_as_dict_counter_or_array():
    c = swtcg_odds.sample(50_000, 3, **ATTACK)
    as_counter = collections.Counter(c)
    array = np.zeros(max(c) + 1, dtype=np.int64)
    for k, n in c.items():
        array[k] = n
    results = [swtcg_odds.verify(x, **ATTACK) for x in (c, as_counter, array)]
    assert len({(r.statistic, r.dof) for r in results}) == 1
    assert all(results)


def test_the_crates_sampler_with_a_planted_bug_fails():
    c = swtcg_odds.sample(200_000, 5, variant="crit-per-six", **ATTACK)
    assert not swtcg_odds.verify(c, **ATTACK)
