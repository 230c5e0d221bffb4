"""Bad input raises swtcg_odds.Error subclasses that carry their typed
origin; nothing panics into Python."""

import os

import pytest

import swtcg_odds


def test_a_bad_value_names_its_parameter():
    with pytest.raises(swtcg_odds.ParameterError) as e:
        swtcg_odds.attack(power=5, health=0)
    assert e.value.origin == {"param": "health", "value": "0"}
    assert e.value.kind == "range"
    assert str(e.value).startswith("health=0: ")
    assert "--" not in str(e.value)


def test_an_unknown_parameter():
    with pytest.raises(swtcg_odds.ParameterError) as e:
        swtcg_odds.attack(power=5, critt=1)
    assert e.value.origin["param"] == "critt"
    assert e.value.kind == "unknown"
    with pytest.raises(swtcg_odds.ParameterError) as e:
        swtcg_odds.attack(power="five")
    assert e.value.origin["param"] == "power"
    with pytest.raises(swtcg_odds.ParameterError):
        swtcg_odds.attack(power=2.5)
    with pytest.raises(swtcg_odds.ParameterError) as e:
        swtcg_odds.attack(power=3, lucky=1, lucky_policy="greedy")
    assert e.value.origin["param"] == "lucky-policy"


def test_work_beyond_the_bounds_is_refused():
    with pytest.raises(swtcg_odds.Error) as e:
        swtcg_odds.table(power=range(0, 1000), crit=range(0, 500))
    assert isinstance(e.value, swtcg_odds.RefusedError)
    assert e.value.kind == "limit"


def test_a_bad_card_file_names_file_and_row(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("Name\tType\tPower\tHealth\tText\nTrooper\tCharacter\tlots\t3\t\n")
    with pytest.raises(swtcg_odds.CardFileError) as e:
        swtcg_odds.Cards.load(f)
    assert e.value.origin["row"] == 2
    assert e.value.origin["file"].endswith("bad.txt")
    assert e.value.origin["column"] == "Power"
    with pytest.raises(swtcg_odds.Error):
        swtcg_odds.Cards.load(tmp_path / "missing.txt")


def test_scenario_errors():
    with pytest.raises(swtcg_odds.Error) as e:
        swtcg_odds.scenario({"attacker": {"name": "A", "power": 3}})
    assert e.value.kind in {"missing", "syntax"}
    with pytest.raises(swtcg_odds.Error):
        swtcg_odds.scenario({"attacker": {"name": "A", "power": 3, "keywords": ["Critical Hit lots"]}, "defender": {"name": "D", "power": 1}})


def test_a_scenario_path_is_read_bounded(tmp_path):
    # Issue 32: a FIFO blocked forever and /dev/zero exhausted memory; both
    # are refused at once, as the command line refuses them.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in [fifo, "/dev/zero"]:
        for solve in (swtcg_odds.scenario, swtcg_odds.plan):
            with pytest.raises(swtcg_odds.Error) as e:
                solve(path)
            assert e.value.kind == "io"
            assert "not a regular file" in str(e.value)


def test_errors_are_also_the_builtin_they_are_a_kind_of(tmp_path):
    # Issue 33: `except ValueError` catches a bad parameter; a file that
    # can't be read is an OSError; a bad row a ValueError.
    with pytest.raises(ValueError) as e:
        swtcg_odds.attack(power=-1)
    assert isinstance(e.value, swtcg_odds.ParameterError)
    with pytest.raises(OSError) as e:
        swtcg_odds.Cards.load(tmp_path / "missing.txt")
    assert isinstance(e.value, swtcg_odds.CardFileReadError)
    assert isinstance(e.value, swtcg_odds.CardFileError)
    assert e.value.kind == "io"
    bad = tmp_path / "bad.txt"
    bad.write_text("Name\tType\tPower\tHealth\nX\tCharacter\tlots\t3\n")
    with pytest.raises(ValueError) as e:
        swtcg_odds.Cards.load(bad)
    assert isinstance(e.value, swtcg_odds.CardFileError)
    assert not isinstance(e.value, OSError)
    assert e.value.origin["row"] == 2


def test_json_text_is_given_by_its_keyword(tmp_path):
    # Issue 33: a str is always a path; JSON text goes in scenario_json=.
    text = '{"attacker": {"name": "A", "power": 4}, "defender": {"name": "D", "power": 3, "health": 4}}'
    r = swtcg_odds.scenario(scenario_json=text)
    assert r.mean == swtcg_odds.attack(power=4, health=4).mean
    with pytest.raises(OSError):
        swtcg_odds.scenario(text)
    with pytest.raises(TypeError):
        swtcg_odds.scenario({"attacker": {}}, scenario_json=text)
    with pytest.raises(TypeError):
        swtcg_odds.plan(42)
