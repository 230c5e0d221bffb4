"""Issue 33: the words of the package's errors are pinned in one snapshot
file (tests/snapshots/errors-python.txt at the repository's root), so
that a change of wording is one reviewed diff; UPDATE_EXPECT=1 writes it."""

import os
import pathlib

import swtcg_odds

ROOT = pathlib.Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "snapshots" / "errors-python.txt"

CALLS = [
    ("attack(power=1001)", lambda: swtcg_odds.attack(power=1001)),
    ("attack(power=-1)", lambda: swtcg_odds.attack(power=-1)),
    ("attack(power=3, health=0)", lambda: swtcg_odds.attack(power=3, health=0)),
    ("attack(powr=3)", lambda: swtcg_odds.attack(powr=3)),
    ("attack(power='five')", lambda: swtcg_odds.attack(power="five")),
    ("attack(power=3, lucky_policy='greedy')", lambda: swtcg_odds.attack(power=3, lucky=1, lucky_policy="greedy")),
    ("table(power=range(1, 1002))", lambda: swtcg_odds.table(power=range(1, 1002))),
    ("scenario('/no/such/file.json')", lambda: swtcg_odds.scenario("/no/such/file.json")),
    ("scenario(scenario_json='{')", lambda: swtcg_odds.scenario(scenario_json="{")),
    ("Cards.load('/no/such/folder')", lambda: swtcg_odds.Cards.load("/no/such/folder")),
]


def test_the_packages_messages_are_pinned():
    lines = []
    for shown, call in CALLS:
        try:
            call()
        except swtcg_odds.Error as e:
            lines.append(f">>> swtcg_odds.{shown}\n{type(e).__name__} ({e.kind}): {e}\n")
        else:
            raise AssertionError(f"{shown} did not fail")
    text = "".join(lines)
    if os.environ.get("UPDATE_EXPECT"):
        SNAPSHOT.write_text(text)
        return
    assert SNAPSHOT.read_text() == text, "review with UPDATE_EXPECT=1 python -m pytest python/tests/test_messages.py, then git diff"
