"""Shared fixtures: the command-line binary the package is compared with
(built by cargo when it is not there yet), and the repository's paths."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs `swtcg-odds ARGS --json` and returns the parsed JSON."""
    path = os.environ.get("SWTCG_ODDS_BIN")
    if not path:
        for profile in ("release", "debug"):
            p = ROOT / "target" / profile / "swtcg-odds"
            if p.exists():
                path = str(p)
                break
    if not path:
        subprocess.run(["cargo", "build", "--release", "--bin", "swtcg-odds"], cwd=ROOT, check=True)
        path = str(ROOT / "target" / "release" / "swtcg-odds")

    def run(*args):
        out = subprocess.run([path, *args], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)

    run.binary = path
    return run


@pytest.fixture(scope="session")
def fixtures():
    return ROOT / "tests" / "fixtures"
