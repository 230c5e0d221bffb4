"""+2 power or Critical Hit 2? A notebook-style sweep with swtcg_odds.

For attackers of power 2 to 12, against defenders with no keyword, with
Armor, and with Armor and Parry 1, it compares the expected damage and the
chance to discard a defender of health 5 of the two upgrades, exactly, and
prints a pandas DataFrame (pandas is needed for this example only).

    pip install ./python pandas
    python examples/python/compare.py
"""

from fractions import Fraction

import pandas as pd

import swtcg_odds

DEFENDERS = {
    "plain": {},
    "Armor": {"armor": True},
    "Armor, Parry 1": {"armor": True, "parry": 1},
}
HEALTH = 5


def odds(**params):
    r = swtcg_odds.attack(health=HEALTH, **params)
    return r.mean, r.p_discard


rows = []
for name, defender in DEFENDERS.items():
    for power in range(2, 13):
        base_mean, base_kill = odds(power=power, **defender)
        plus_mean, plus_kill = odds(power=power + 2, **defender)
        crit_mean, crit_kill = odds(power=power, crit=2, **defender)
        rows.append({
            "defender": name,
            "power": power,
            "E[dmg]": base_mean,
            "+2 power": plus_mean,
            "Crit 2": crit_mean,
            "P(discard) +2": plus_kill,
            "P(discard) Crit 2": crit_kill,
            # Exact, so a tie is a tie: the better upgrade for discards.
            "better": "tie" if plus_kill == crit_kill else ("+2 power" if plus_kill > crit_kill else "Crit 2"),
        })

frame = pd.DataFrame(rows)
exact = frame.copy()
# Display: floats only now, the exact Fractions stay in `exact`.
for col in ["E[dmg]", "+2 power", "Crit 2", "P(discard) +2", "P(discard) Crit 2"]:
    frame[col] = frame[col].map(float).round(4)
pd.set_option("display.width", 120)
print(frame.to_string(index=False))

# Where Critical Hit 2 overtakes +2 power in expected damage, per defender.
for name, group in exact.groupby("defender", sort=False):
    crit_ahead = [p for p, c, q in zip(group["power"], group["Crit 2"], group["+2 power"]) if c > q]
    gap = max(group["Crit 2"] - group["+2 power"], key=abs)
    assert all(isinstance(x, Fraction) for x in group["Crit 2"])
    print(f"{name}: Crit 2 ahead in E[dmg] at power {crit_ahead or 'none'}; largest gap {float(gap):+.4f}")
