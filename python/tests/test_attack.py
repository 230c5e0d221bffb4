"""The package's answers are the command line's, and a plain Python
enumeration of dice agrees with them on small cases."""

import itertools
import json
import random

import pytest
from fractions import Fraction

import swtcg_odds

# Parameters drawn at random: (name, values).
SPACE = [
    ("power", range(0, 9)),
    ("accuracy", range(-1, 3)),
    ("crit", range(0, 4)),
    ("parry", range(0, 3)),
    ("armor", [False, True]),
    ("shields", range(0, 3)),
    ("fury", range(0, 2)),
    ("evade", range(0, 3)),
    ("deflect", range(0, 2)),
    ("stun", range(0, 2)),
    ("health", range(1, 8)),
    ("lucky", range(0, 2)),
    ("defender_lucky", range(0, 2)),
]


def flags(params):
    out = []
    for k, v in params.items():
        flag = "--" + k.replace("_", "-")
        if isinstance(v, bool):
            if v:
                out.append(flag)
        else:
            out += [flag, str(v)]
    return out


def test_random_attacks_equal_the_cli(cli):
    rng = random.Random(22)
    for _ in range(40):
        params = {k: rng.choice(list(vs)) for k, vs in SPACE if rng.random() < 0.5}
        params.setdefault("power", rng.randrange(1, 9))
        r = swtcg_odds.attack(**params)
        expected = cli("attack", *flags(params), "--json")
        assert r.to_dict() == expected, params
        # The objects carry the same exact values.
        assert r.mean == Fraction(expected["defender_damage"]["mean"])
        assert r.pmf == {int(k): Fraction(v) for k, v in expected["defender_damage"]["pmf"].items()}
        assert r.attacker.mean == Fraction(expected["attacker_damage"]["mean"])
        if "defender_discarded" in expected:
            assert r.p_discard == Fraction(expected["defender_discarded"])
        else:
            assert r.p_discard is None


def brute(power, accuracy=0, armor=False, shields=0, crit=0, parry=0, health=None):
    """Every face of every die, in plain Python (RULES.md: hits on 4+, 5+
    against Armor, after Accuracy; Critical Hit once for any natural 6;
    Parry on any natural 1, prevents up to its number)."""
    n = max(0, power - shields)
    need = 5 if armor else 4
    counts = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        dmg = sum(1 for f in faces if f + accuracy >= need)
        if 6 in faces:
            dmg += crit
        if 1 in faces:
            dmg = max(0, dmg - parry)
        counts[dmg] = counts.get(dmg, 0) + 1
    total = 6**n
    pmf = {k: Fraction(c, total) for k, c in sorted(counts.items())}
    p = None if health is None else sum(v for k, v in pmf.items() if k >= health)
    return pmf, p


def test_brute_force_agrees_on_small_cases():
    cases = 0
    for power, accuracy, armor, shields, crit, parry in itertools.product(
        range(0, 5), (-1, 0, 2), (False, True), (0, 1), (0, 2), (0, 1)
    ):
        pmf, p = brute(power, accuracy, armor, shields, crit, parry, health=3)
        r = swtcg_odds.attack(
            power=power, accuracy=accuracy, armor=armor, shields=shields, crit=crit, parry=parry, health=3
        )
        assert r.pmf == pmf, (power, accuracy, armor, shields, crit, parry)
        assert r.p_discard == p
        assert sum(r.pmf.values()) == 1
        # The tail and the cdf are the pmf summed.
        for k in pmf:
            assert r.tail[k] == sum(v for j, v in pmf.items() if j >= k)
            assert r.cdf[k] == sum(v for j, v in pmf.items() if j <= k)
        cases += 1
    assert cases == 5 * 3 * 2 * 2 * 2 * 2


def test_results_are_exact_until_asked():
    r = swtcg_odds.attack(power=5, crit=2, armor=True, health=5)
    assert r.mean == Fraction(11131, 3888)
    assert isinstance(r.p_discard, Fraction)
    assert abs(float(r) - 11131 / 3888) < 1e-12
    a = r.pmf_array()
    assert a.shape == (max(r.pmf) + 1,)
    assert abs(a.sum() - 1) < 1e-12
    # The joint law of both sides' damage sums to 1, and its margins are
    # the two distributions.
    j = swtcg_odds.attack(power=4, crit=1, retaliate=2, health=6, attacker_health=3).joint_array()
    assert abs(j.sum() - 1) < 1e-12
    r2 = swtcg_odds.attack(power=4, crit=1, retaliate=2, health=6, attacker_health=3)
    for k, p in r2.pmf.items():
        assert abs(j[k, :].sum() - float(p)) < 1e-12
    for k, p in r2.attacker.pmf.items():
        assert abs(j[:, k].sum() - float(p)) < 1e-12
    assert "11131/3888" in repr(r)


def test_help_shows_every_parameter():
    doc = swtcg_odds.attack.__doc__
    import inspect

    sig = inspect.signature(swtcg_odds.attack)
    for name, _, _, _ in swtcg_odds.PARAMETERS:
        assert name in sig.parameters
        assert f"    {name} (" in doc


def test_scenario_and_plan(fixtures):
    root = fixtures.parent.parent
    r = swtcg_odds.scenario(root / "examples" / "scenarios" / "beyghor.json")
    assert sum(r.pmf.values()) == 1
    assert r.damage_by_unit
    d = r.to_dict()
    assert Fraction(d["defender_damage"]["mean"]) == r.mean
    spec = {
        "attacker": {"name": "A", "power": 4, "keywords": ["Critical Hit 1"]},
        "defender": {"name": "D", "power": 3, "health": 4, "keywords": ["Parry 1"]},
    }
    s = swtcg_odds.scenario(spec)
    assert s.mean == swtcg_odds.attack(power=4, crit=1, parry=1, health=4).mean
    p = swtcg_odds.plan(root / "examples" / "scenarios" / "plan.json")
    assert sum(p.total.pmf.values()) == 1
    assert p.p_discard_by_step == sorted(p.p_discard_by_step)


def test_threads_give_the_same_answers():
    from concurrent.futures import ThreadPoolExecutor

    params = [dict(power=p, crit=2, lucky=1, defender_lucky=1, health=5) for p in range(8, 14)]
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda kw: swtcg_odds.attack(**kw).mean, params))
    assert got == [swtcg_odds.attack(**kw).mean for kw in params]


def test_fast_fractions_are_fractions_and_weights_are_exact():
    # Issue 35: .pmf's Fractions are made without Fraction.__new__ (they are
    # reduced already); each must be a Fraction like any other, and
    # pmf_weights() the same law as integers over one denominator.
    r = swtcg_odds.attack(power=40, crit=3, parry=2, lucky=1)
    for law in (r.pmf, r.cdf, r.tail, r.attacker.pmf, r.defender.damage.pmf):
        for k, f in law.items():
            assert type(f) is Fraction
            same = Fraction(f.numerator, f.denominator)
            assert f == same and hash(f) == hash(same) and f.denominator > 0
            assert f + 0 == same and f * 2 == same * 2 and str(f) == str(same)
    assert sum(r.pmf.values()) == 1
    weights, den = r.pmf_weights()
    assert [k for k, _ in weights] == list(r.pmf)
    assert sum(w for _, w in weights) == den
    assert all(Fraction(w, den) == r.pmf[k] for k, w in weights)
    assert r.defender.pmf_weights() == (weights, den)


def test_battle_is_the_commands_answer_with_fractions(fixtures, cli):
    root = fixtures.parent.parent
    path = root / "examples" / "battles" / "duel.json"
    b = swtcg_odds.battle(path, policy=True)
    want = cli("battle", str(path), "--json", "--policy")
    c = b["arenas"]["Character"]
    assert all(isinstance(c[k], Fraction) for k in ("dark", "light", "contested", "empty"))
    assert sum(c.values()) == 1
    for k in ("dark", "light", "contested", "empty"):
        assert c[k] == Fraction(want["arenas"]["Character"][k])
    assert b["first"]["best"] == want["first"]["best"]
    assert [o["value"] for o in b["first"]["options"]] == [Fraction(o["value"]) for o in want["first"]["options"]]
    assert b["force"] == {"dark": "4", "light": "4"}
    assert len(b["units"]) == 4 and len(b["policy"]) == len(want["policy"])
    # A dict solves as its file does; JSON text goes in battle_json=.
    spec = json.loads(path.read_text())
    assert swtcg_odds.battle(spec)["values"] == b["values"]
    assert swtcg_odds.battle(battle_json=path.read_text())["value"] == b["value"]
    with pytest.raises(swtcg_odds.Error):
        swtcg_odds.battle({"units": []})


def test_a_parameter_answers_to_its_side_spelled_out():
    """``defender_armor`` is ``armor`` and ``attacker_power`` is ``power``
    (as ``defender_stun`` and ``attacker_health`` are names), in an attack
    and a table; under both names it is given twice."""
    plain = swtcg_odds.attack(power=4, crit=1, armor=True, health=3)
    spelled = swtcg_odds.attack(attacker_power=4, attacker_crit=1, defender_armor=True, defender_health=3)
    assert spelled.pmf == plain.pmf
    assert spelled.p_discard == plain.p_discard is not None
    assert plain.pmf[0] != 1
    rows = swtcg_odds.table(attacker_power=range(1, 4), defender_armor=[False, True])
    assert rows == swtcg_odds.table(power=range(1, 4), armor=[False, True])
    assert len(rows) == 6 and {"power", "armor"} <= set(rows[0])
    # None is not given, under either name.
    assert swtcg_odds.attack(power=None, attacker_power=4, crit=1, defender_armor=True, health=3).pmf == plain.pmf
    for call in (
        lambda: swtcg_odds.attack(power=4, armor=True, defender_armor=False),
        lambda: swtcg_odds.table(power=range(1, 3), attacker_power=[2]),
    ):
        with pytest.raises(swtcg_odds.ParameterError) as e:
            call()
        assert e.value.kind == "conflict"
