"""Exact odds for attacks in the Star Wars Trading Card Game.

Every dice outcome is enumerated: probabilities are exact
``fractions.Fraction`` values, and a float appears only when you ask for
one (``float(result)``, ``.pmf_array()``). The package binds the
``swtcg-engine`` and ``swtcg-cards`` Rust crates directly (never the
command line) and releases the GIL while it solves, so threads run a sweep
in parallel.

>>> import swtcg_odds
>>> r = swtcg_odds.attack(power=5, crit=2, armor=True, health=5)
>>> r.mean
Fraction(11131, 3888)
>>> float(r.p_discard) < 0.1
True

Simulator authors check their Monte Carlo engine in one line::

    assert swtcg_odds.verify(my_counts, power=8, crit=2, parry=1, armor=True)

Errors are ``swtcg_odds.Error`` (``ParameterError``, also a ``ValueError``;
``CardFileError``, also a ``ValueError``, and ``CardFileReadError`` for a
file that can't be read, also an ``OSError``; ``RefusedError``), each with
``.kind`` and ``.origin`` (the parameter, or the file, row and column).
"""

from __future__ import annotations

import inspect
import itertools
import json
import operator
import os
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, TypedDict

from . import _native
from ._errors import CardFileError, CardFileReadError, Error, ParameterError, RefusedError
from ._native import (
    AttackResult,
    Distribution,
    PlanResult,
    SideResult,
    Verification,
)

__all__ = [
    "attack",
    "scenario",
    "plan",
    "battle",
    "table",
    "verify",
    "sample",
    "Cards",
    "Error",
    "ParameterError",
    "CardFileError",
    "CardFileReadError",
    "RefusedError",
    "AttackResult",
    "SideResult",
    "Distribution",
    "PlanResult",
    "Verification",
    "PARAMETERS",
    "AttackParams",
]

#: The parameters of an attack: (name, kind, side, doc), names in
#: snake_case as the functions take them.
PARAMETERS: list[tuple[str, str, str, str]] = [
    (name.replace("-", "_"), kind, side, doc) for name, kind, side, doc in _native.params()
]
_NAMES = {p[0] for p in PARAMETERS}
#: Each unit parameter's other name, with whose it is spelled out
#: (``defender_armor`` for ``armor``, ``attacker_power`` for ``power``),
#: and the name it stands for.
_ALIASES = {a.replace("-", "_"): n.replace("-", "_") for a, n in _native.aliases()}

#: Every parameter of an attack as a ``TypedDict`` (all optional): the
#: keyword arguments ``attack``, ``table``, ``verify`` and ``sample`` take,
#: for annotating your own ``**params``.
AttackParams = TypedDict(  # type: ignore[misc]
    "AttackParams",
    {
        name: {"count": int, "signed": int, "health": int, "switch": bool, "word": str}.get(kind, Any)
        for name, kind, _, _ in PARAMETERS
    },
    total=False,
)


def _bad(param: str, message: str, value: Any = None, kind: str = "syntax") -> ParameterError:
    """A ParameterError raised on the Python side, shaped like the native ones."""
    e = ParameterError(f"{param}: {message}")
    e.kind = kind
    e.origin = {"param": param.replace("_", "-")}
    if value is not None:
        e.origin["value"] = repr(value)
    return e


def _text(param: str, value: Any) -> str:
    """A parameter's value as the engine reads it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    try:
        return str(operator.index(value))
    except TypeError:
        raise _bad(param, f"expected a whole number, a bool or a word, got {type(value).__name__}", value) from None


def _named(params: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments under their parameters' names (an alias such as
    ``defender_armor`` under ``armor``); one given under both is an error."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        name = _ALIASES.get(k, k)
        if out.get(name) is not None and v is not None:
            raise _bad(k, f"given twice (as {name} and as {k})", kind="conflict")
        if out.get(name) is None:
            out[name] = v
    return out


def _pairs(params: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Keyword arguments as the engine's (name, value) pairs; None means not given."""
    out = []
    for k, v in _named(params).items():
        if k not in _NAMES:
            raise _bad(k, "is not a parameter of an attack (see swtcg_odds.PARAMETERS)", kind="unknown")
        if v is None:
            continue
        out.append((k.replace("_", "-"), _text(k, v)))
    return out


def _signature(extra: list[inspect.Parameter] = (), first: list[inspect.Parameter] = ()) -> inspect.Signature:
    kinds = {"count": int, "signed": int, "health": int, "switch": bool, "word": str}
    params = list(first) + [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=kinds.get(kind, Any))
        for name, kind, _, _ in PARAMETERS
    ] + list(extra)
    return inspect.Signature(params)


def _params_doc() -> str:
    lines = []
    for name, kind, side, doc in PARAMETERS:
        lines.append(f"    {name} ({kind}, {side}): {doc}")
    return "\n".join(lines)


def attack(**params: Any) -> AttackResult:
    """Solves one attack exactly.

    Every parameter of the command line's ``attack``, in snake_case; a
    parameter left out (or None) is not given. Attacks with Lucky, Force
    costs or an objective are solved with both players' best play.

    Returns an AttackResult: ``.pmf``, ``.cdf``, ``.tail``, ``.mean`` and
    ``.p_discard`` of the damage to the defender, ``.attacker`` the same
    way, ``.hits``, ``.used``, ``.to_dict()`` (the keys of ``attack
    --json``), ``.joint_array()`` and ``float()``.

    Parameters:
    """
    return _native.attack(_pairs(params))


attack.__signature__ = _signature()
attack.__doc__ = (attack.__doc__ or "") + "\n" + _params_doc() + "\n"


def _json_text(what: str, spec: Any, text: str | None) -> str:
    """A scenario or plan as JSON text: a dict or a path (a ``str`` is
    always a path), or JSON text given by its keyword; never guessed."""
    if text is not None:
        if spec is not None:
            raise TypeError(f"give the {what} or {what}_json=, not both")
        if not isinstance(text, str):
            raise TypeError(f"{what}_json= takes JSON text, got {type(text).__name__}")
        return text
    if isinstance(spec, Mapping):
        return json.dumps(spec)
    if isinstance(spec, (str, os.PathLike)):
        # Bounded, regular files only: never a FIFO, a device or /dev/zero.
        return _native._read_file(os.fspath(spec))
    raise TypeError(
        f"expected a dict or a path (JSON text goes in {what}_json=), got {type(spec).__name__}"
    )


def scenario(
    spec: Mapping[str, Any] | str | os.PathLike | None = None,
    *,
    scenario_json: str | None = None,
    cards: Cards | None = None,
) -> AttackResult:
    """Solves a scenario: a dict in the scenario file's format, a path to
    one, or its JSON text as ``scenario_json=``.

    Units may be ``{"card": "Name"}`` when ``cards`` is given. Returns an
    AttackResult with ``.damage_by_unit`` and ``.used`` besides.
    """
    text = _json_text("scenario", spec, scenario_json)
    return _native.scenario(text, cards._db if cards is not None else None)


def plan(
    spec: Mapping[str, Any] | str | os.PathLike | None = None,
    *,
    plan_json: str | None = None,
    cards: Cards | None = None,
) -> PlanResult:
    """Solves a battle plan: a dict in the plan file's format, a path to
    one, or its JSON text as ``plan_json=``."""
    text = _json_text("plan", spec, plan_json)
    return _native.plan(text, cards._db if cards is not None else None)


def _exact(node: Any, key: str | None = None) -> Any:
    """The battle's JSON with every probability and value (``"n/d"``) as a
    Fraction; the Force (a number or ``"unlimited"``) stays as written."""
    if isinstance(node, dict):
        return {k: (v if k == "force" else _exact(v, k)) for k, v in node.items()}
    if isinstance(node, list):
        return [_exact(v, key) for v in node]
    if isinstance(node, str) and key in _FRACTION_KEYS:
        return Fraction(node)
    return node


_FRACTION_KEYS = {
    "dark",
    "light",
    "contested",
    "empty",
    "value",
    "other",
    "survives",
    "expected_counters",
    "discarded_first",
    "reached",
}


def battle(
    spec: Mapping[str, Any] | str | os.PathLike | None = None,
    *,
    battle_json: str | None = None,
    cards: Cards | None = None,
    policy: bool = False,
) -> dict[str, Any]:
    """Solves a battle phase exactly: a dict in the battle file's format
    (docs/battle.md), a path to one, or its JSON text as ``battle_json=``.

    Returns the answer of ``battle --json`` as a dict, every probability and
    value an exact ``Fraction``: ``arenas`` (per arena, P(dark controls),
    P(light controls), P(contested), P(empty)), ``control_two``, ``value``
    and ``values``, ``first`` (the first decision, each alternative with its
    value, the best first), ``units`` (each unit's P(survives), expected
    counters and P(discarded first)), ``states``; with ``policy=True``,
    ``policy``: the best choice in every state the battle reaches. Units may
    be ``{"card": "Name", "side": "dark"}`` when ``cards`` is given.
    """
    text = _json_text("battle", spec, battle_json)
    answer = _native.battle(text, cards._db if cards is not None else None, policy)
    return _exact(json.loads(answer))


def _values(param: str, v: Any) -> list[int]:
    if isinstance(v, bool):
        return [int(v)]
    if isinstance(v, (str, bytes)):
        raise _bad(param, "expected whole numbers (an int, a range or a list)", v)
    if isinstance(v, Iterable):
        return [int(operator.index(x)) for x in v]
    try:
        return [operator.index(v)]
    except TypeError:
        raise _bad(param, f"expected whole numbers, got {type(v).__name__}", v) from None


_CHOICES = {p[0] for p in PARAMETERS if p[2] == "choice"}
_ORDER = {p[0]: i for i, p in enumerate(PARAMETERS)}


def table(*, as_frame: bool = False, pmfs: bool = False, **params: Any) -> list[dict[str, Any]] | Any:
    """A table of attacks: each parameter an int or an iterable of ints (a range).

    Every combination is a row: the parameters, ``mean`` (the expected
    damage, a Fraction), ``mean_f64``, and ``p_discard``/``p_discard_f64``
    when health is given; with ``pmfs=True``, ``pmf`` too (the law of the
    damage, as ``attack().pmf``). Every parameter ``attack`` takes is
    taken: the choices (``lucky_policy``, ``objective``, ``force_attacker``,
    ...) each as one value, applied to every row. ``as_frame=True`` returns
    a pandas DataFrame (pandas is needed only then).
    """
    axes = []
    choices = {}
    for k, v in _named(params).items():
        if k not in _NAMES:
            raise _bad(k, "is not a parameter of a table (see swtcg_odds.PARAMETERS)", kind="unknown")
        if v is None:
            continue
        if k in _CHOICES:
            choices[k] = v
        else:
            axes.append((k, _values(k, v)))
    if choices or pmfs:
        # Attack by attack (the choices the same in every row), in the
        # native table's order: the parameters in PARAMETERS' order, the
        # last varying fastest.
        axes.sort(key=lambda kv: _ORDER[kv[0]])
        keys = [k for k, _ in axes]
        cells = _native.table_attacks(_pairs(choices), [(k.replace("_", "-"), v) for k, v in axes], pmfs)
        combos = itertools.product(*[values for _, values in axes])
        rows = [(list(combo), c) for combo, c in zip(combos, cells)]
    else:
        names, rows = _native.table([(k.replace("_", "-"), v) for k, v in axes])
        keys = [n.replace("-", "_") for n in names]
    # Each row: its values, and (mean, mean's float, P(discard), its float, pmf).
    if as_frame:
        import pandas as pd

        columns: dict[str, list[Any]] = {k: [] for k in keys}
        means, means_f, discards, discards_f, laws = [], [], [], [], []
        for values, (mean, mean_f, p, p_f, pmf) in rows:
            for k, v in zip(keys, values):
                columns[k].append(v)
            means.append(mean)
            means_f.append(mean_f)
            discards.append(p)
            discards_f.append(p_f)
            laws.append(pmf)
        columns.update(mean=means, mean_f64=means_f)
        if any(p is not None for p in discards):
            columns.update(p_discard=discards, p_discard_f64=discards_f)
        if pmfs:
            columns.update(pmf=laws)
        return pd.DataFrame(columns)
    out = []
    for values, (mean, mean_f, p, p_f, pmf) in rows:
        row: dict[str, Any] = dict(zip(keys, values))
        row["mean"] = mean
        row["mean_f64"] = mean_f
        if p is not None:
            row["p_discard"] = p
            row["p_discard_f64"] = p_f
        if pmfs:
            row["pmf"] = pmf
        out.append(row)
    return out


table.__signature__ = _signature(
    extra=[
        inspect.Parameter("as_frame", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool),
        inspect.Parameter("pmfs", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool),
    ]
)


def _counts(counts: Any) -> list[tuple[int, int]]:
    """Counts as (outcome, count) pairs: a dict or Counter of outcome to
    count, or a 1-D array (or list) whose entry k counts outcome k."""
    if isinstance(counts, Mapping):
        return [(int(operator.index(k)), int(operator.index(c))) for k, c in counts.items()]
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        np = None
    if np is not None and isinstance(counts, np.ndarray):
        if counts.ndim != 1 or not np.issubdtype(counts.dtype, np.integer):
            raise _bad("counts", "a numpy array of counts must be 1-D and of integers (entry k counts outcome k)")
        if counts.size and counts.min() < 0:
            raise _bad("counts", "counts can't be negative")
        nz = np.flatnonzero(counts)
        return list(zip(nz.tolist(), counts[nz].tolist()))
    if isinstance(counts, Iterable) and not isinstance(counts, (str, bytes)):
        return [(k, int(operator.index(c))) for k, c in enumerate(counts) if c]
    raise _bad("counts", f"expected a dict, a Counter or an array of counts, got {type(counts).__name__}")


def verify(counts: Any, *, quantity: str = "defender_damage", alpha: float = 0.001, **params: Any) -> Verification:
    """Checks a simulator's counts against the exact law of the attack.

    ``counts``: a dict or ``collections.Counter`` of outcome to count, or a
    numpy array whose entry k counts outcome k. ``quantity``:
    ``defender_damage`` (the default), ``attacker_damage`` or ``hits``.

    Returns a Verification (statistic, dof, p_value, verdict, worst
    outcomes); ``bool()`` of it is the verdict at ``alpha``, so a test is
    ``assert swtcg_odds.verify(counts, power=8, crit=2)``.
    """
    return _native.verify(_counts(counts), _pairs(params), quantity, float(alpha))


verify.__signature__ = _signature(
    first=[inspect.Parameter("counts", inspect.Parameter.POSITIONAL_OR_KEYWORD)],
    extra=[
        inspect.Parameter("quantity", inspect.Parameter.KEYWORD_ONLY, default="defender_damage", annotation=str),
        inspect.Parameter("alpha", inspect.Parameter.KEYWORD_ONLY, default=0.001, annotation=float),
    ],
)


def sample(trials: int, seed: int = 1, *, quantity: str = "defender_damage", variant: str | None = None, **params: Any) -> dict[int, int]:
    """Samples attacks die by die with the crate's own simulator (independent of the exact engine).

    Returns a dict of outcome to count. ``variant`` plants a known bug
    (``crit-per-six``, ``parry-on-two``, ``fury-on-reroll``,
    ``armor-ignored``) so that a checker can be seen to catch it.
    """
    return _native.sample(_pairs(params), int(trials), int(seed), quantity, variant)


sample.__signature__ = _signature(
    first=[
        inspect.Parameter("trials", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=int),
        inspect.Parameter("seed", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1, annotation=int),
    ],
    extra=[
        inspect.Parameter("quantity", inspect.Parameter.KEYWORD_ONLY, default="defender_damage", annotation=str),
        inspect.Parameter("variant", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str),
    ],
)


def _fractions(row: dict[str, Any]) -> dict[str, Any]:
    for k in ("mean", "p_discard", "damage_back", "damage_dealt_exact"):
        v = row.get(k)
        if isinstance(v, str) and "/" in v:
            row[k] = Fraction(v)
    return row


class Cards:
    """A database of LackeyCCG set files: ``Cards.load(path_or_folder, ...)``."""

    def __init__(self, db: Any):
        self._db = db

    @classmethod
    def load(cls, *paths: str | os.PathLike) -> Cards:
        """Reads card files and folders (every card list in them)."""
        if not paths:
            raise _bad("paths", "give a card file or folder")
        return cls(_native.Cards.load([os.fspath(p) for p in paths]))

    def __len__(self) -> int:
        return len(self._db)

    def find(self, text: str) -> list[dict[str, Any]]:
        """The cards whose name contains ``text`` (case and accents folded)."""
        return self._db.find(text)

    def check(self) -> dict[str, Any]:
        """Coverage: rows, units, abilities by class, texts not understood."""
        return self._db.check()

    def attack(self, attacker: str, defender: str, *, conditions: Iterable[str] = (), arena: str | None = None) -> AttackResult:
        """One card (a stack "Top + Beneath", a pilot "Unit with Pilot") attacking another, as ``cards attack`` solves it."""
        return self._db.attack(attacker, defender, list(conditions), arena)

    def matchups(self, attackers: str = "all", defenders: str = "all", *, ranked: bool = False) -> Iterator[dict[str, Any]]:
        """Every pairing of the selected cards (``all``, ``set:ANH``, ``type:Character``, ...),
        as rows with exact Fractions, streamed as they are solved (memory stays bounded);
        with ``ranked``, the rankings' rows."""
        if ranked:
            return (_fractions(r) for r in json.loads(self._db.rankings_json(attackers, defenders)))
        # Streamed: rows are solved on a thread of their own as they are read,
        # a bounded number ahead; dropping the iterator stops the solve.
        return (_fractions(json.loads(text)) for text in self._db.matchup_rows(attackers, defenders))

    def __repr__(self) -> str:
        return f"Cards({len(self)} unit cards)"
