"""The type stub lists every parameter the functions take."""

import pathlib

import swtcg_odds

STUB = pathlib.Path(swtcg_odds.__file__).with_suffix(".pyi")


def test_the_stub_names_every_parameter():
    text = STUB.read_text()
    for name, _, _, _ in swtcg_odds.PARAMETERS:
        assert f"    {name}: " in text, name
    for fn in ("def attack(", "def table(", "def verify(", "def sample(", "def scenario(", "def plan(", "class Cards"):
        assert fn in text
    # One parameter list, shared (issue 33): each parameter is written once.
    for name, _, _, _ in swtcg_odds.PARAMETERS:
        assert text.count(f"    {name}: ") == 1, name
    assert text.count("**params: Unpack[AttackParams]") == 4


def test_every_stubbed_member_exists():
    """Each class's members in the stub (its own and a stub-only base's)
    exist on the real class, and each stubbed function on the module."""
    import ast

    tree = ast.parse(STUB.read_text())
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}

    def members(c):
        own = {f.name for f in c.body if isinstance(f, ast.FunctionDef)}
        for base in c.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                own |= members(classes[base.id])
        return own

    checked = 0
    for name, c in classes.items():
        if name.startswith("_") or any(isinstance(b, ast.Name) and b.id == "Exception" for b in c.bases):
            continue
        real = getattr(swtcg_odds, name)
        for m in members(c):
            assert hasattr(real, m), f"{name}.{m}"
            checked += 1
    for f in tree.body:
        if isinstance(f, ast.FunctionDef):
            assert callable(getattr(swtcg_odds, f.name)), f.name
            checked += 1
    assert checked > 40
