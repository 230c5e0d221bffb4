"""The 800-attack table (power 1..40 x crit 0..4 x parry 0..3) in icepool,
written the expert way: one MultisetEvaluator pass per power computes the
joint law of (hits, any natural 1, any natural 6), and Critical Hit and
Parry are mapped over it. Prints the same rows as
`swtcg-odds table --power 1..40 --crit 0..4 --parry 0..3 --format json`
(power, crit, parry, exact mean). Run: python3 benches/peer/icepool_table.py
"""
import json
from fractions import Fraction

import icepool
from icepool import MultisetEvaluator, d6


class Roll(MultisetEvaluator):
    """(hits on 4+, any natural 1, any natural 6)."""

    def next_state(self, state, order, outcome, count):
        hits, one, six = state or (0, False, False)
        if count > 0:
            if outcome >= 4:
                hits += count
            if outcome == 1:
                one = True
            if outcome == 6:
                six = True
        return hits, one, six

    def final_outcome(self, final_state, *args):
        return final_state if final_state is not None else (0, False, False)


def main():
    rows = []
    for power in range(1, 41):
        law = Roll().evaluate(d6.pool(power))
        for crit in range(0, 5):
            for parry in range(0, 4):
                def damage(state):
                    hits, one, six = state
                    pending = hits + (crit if six else 0)
                    return max(0, pending - (parry if one else 0))
                d = law.map(damage)
                mean = Fraction(sum(o * q for o, q in d.items()), d.denominator())
                rows.append({"power": power, "crit": crit, "parry": parry,
                             "mean": f"{mean.numerator}/{mean.denominator}"})
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
