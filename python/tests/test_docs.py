"""docs/python.md runs as written: its `>>>` session prints what it shows,
its two files make a passing pytest suite, and the planted bug it describes
makes the same suite fail with the message it shows."""

import doctest
import re
import subprocess
import sys

ROOT_DOC = "docs/python.md"


def blocks(root, lang):
    text = (root / ROOT_DOC).read_text(encoding="utf-8")
    return re.findall(r"```" + lang + r"\n(.*?)```", text, flags=re.S)


def test_the_session_prints_what_it_shows(fixtures):
    root = fixtures.parents[1]
    sessions = [b for b in blocks(root, "python") if b.startswith(">>>")]
    assert sessions
    for text in sessions:
        test = doctest.DocTestParser().get_doctest(text, {}, ROOT_DOC, ROOT_DOC, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0 and runner.tries > 3


def run_pytest(folder):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
        cwd=folder, capture_output=True, text=True, timeout=600,
    )


def test_the_files_pass_and_the_planted_bug_fails(fixtures, tmp_path):
    root = fixtures.parents[1]
    files = {}
    for b in blocks(root, "python"):
        m = re.match(r"# file: (\S+)\n", b)
        if m:
            files[m.group(1)] = b
    assert set(files) == {"my_sim.py", "test_my_sim.py"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    ok = run_pytest(tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "1 passed" in ok.stdout

    sim = files["my_sim.py"]
    line = "damage += 2                            # Critical Hit 2, once"
    assert line in sim and "`damage += 2 * sixes`" in (root / ROOT_DOC).read_text(encoding="utf-8")
    (tmp_path / "my_sim.py").write_text(sim.replace(line, "damage += 2 * sixes"), encoding="utf-8")
    bad = run_pytest(tmp_path)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "1 failed" in bad.stdout
    shown = next(l for l in (root / ROOT_DOC).read_text(encoding="utf-8").splitlines()
                 if l.startswith("E       assert Verification("))
    assert shown in bad.stdout.splitlines()


def test_the_compare_example_runs(fixtures):
    root = fixtures.parents[1]
    out = subprocess.run([sys.executable, str(root / "examples/python/compare.py")],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["defender", "power", "E[dmg]", "+2", "power", "Crit", "2",
                                "P(discard)", "+2", "P(discard)", "Crit", "2", "better"]
    # 3 defenders x powers 2..12, then one summary line per defender.
    assert len(lines) == 1 + 33 + 3
    # Power 2 against a plain defender: +2 power's E[dmg] is exactly 2.
    assert lines[1].split()[:4] == ["plain", "2", "1.0000", "2.0000"]
