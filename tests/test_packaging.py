"""A built wheel carries the rules documents and the AI level ratings, and an install of it finds them."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

import boardlab
from boardlab import docs, fast
from boardlab.agents import level_ratings
from generated_docs import need

ROOT = pathlib.Path(__file__).resolve().parents[1]
BUILD_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "src", "docs")

PROBE = """
import json, random, boardlab, boardlab.fast
from boardlab import docs
from boardlab.agents import level_ratings
print(json.dumps({
    "package": boardlab.__file__,
    "rules": {g: str(docs.rules_path(g)) for g in boardlab.games()},
    "rules_start": {g: docs.rules_text(g)[:60] for g in boardlab.games()},
    "ai": {g: str(docs.ai_notes_path(g)) for g in boardlab.games()},
    "ratings": {g: level_ratings(g) for g in boardlab.games()},
    "verdicts": {g: docs.balance_verdict(g) for g in boardlab.games()},
    "fast": boardlab.fast.status(),
    "cirque": boardlab.make("cirque").new_initial_state().play_random(random.Random(1).random, 999),
}))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    tree = tmp_path_factory.mktemp("tree")
    for name in BUILD_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(src, tree / name)
    out = tmp_path_factory.mktemp("wheel")
    # As on a machine without a C compiler: the compiled rollouts fail to build, and the wheel is pure Python.
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(out)],
        cwd=tree,
        env={**os.environ, "CC": str(tree / "no-such-compiler")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if run.returncode and "satisfies the requirement setuptools" in run.stdout + run.stderr:
        pytest.skip("no build backend can be installed here (pip needs setuptools from an index)")
    assert run.returncode == 0, run.stdout + run.stderr
    (whl,) = out.glob("boardlab-*.whl")
    return whl


@pytest.mark.slow
def test_the_wheel_ships_every_rules_document_and_ai_note(wheel: pathlib.Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for kind in ("rules", "ai", "balance"):
        for doc in (ROOT / "docs" / kind).glob("*.md"):
            assert f"boardlab/docs/{kind}/{doc.name}" in names
    assert {f"boardlab/docs/rules/{g}.md" for g in boardlab.games()} <= names


def compiled_modules(names: set[str]) -> set[str]:
    """The compiled rollouts' module names among a wheel's files (``boardlab/fast/_cirque.cpython-….so``)."""
    return {
        n.rsplit("/", 1)[1].split(".", 1)[0]
        for n in names
        if n.startswith("boardlab/fast/_") and n.endswith((".so", ".pyd"))
    }


@pytest.mark.slow
def test_without_a_compiler_the_wheel_is_pure_python(wheel: pathlib.Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert compiled_modules(names) == set()  # the build went on without them
    assert {"boardlab/fast/__init__.py", "boardlab/games/cirque.py"} <= names


@pytest.mark.slow
def test_an_installed_wheel_finds_the_rules_and_the_level_ratings(wheel: pathlib.Path, tmp_path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {k: v for k, v in os.environ.items() if k != "BOARDLAB_RULES_DIR"}
    env["PYTHONPATH"] = str(site)
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["package"].startswith(str(site))  # the wheel's copy, not the source tree
    for g in boardlab.games():
        assert found["rules"][g] == str(site / "boardlab" / "docs" / "rules" / f"{g}.md")
        assert found["rules_start"][g] == (ROOT / "docs" / "rules" / f"{g}.md").read_text(encoding="utf-8")[:60]
        if (ROOT / "docs" / "ai" / f"{g}.md").is_file():
            assert found["ai"][g] == str(site / "boardlab" / "docs" / "ai" / f"{g}.md")
        assert found["ratings"][g] == level_ratings(g)  # the same figures as the source tree's docs/ai
    assert found["ratings"]["blast-radius"]  # and there are some
    assert found["verdicts"] == {g: docs.balance_verdict(g) for g in boardlab.games()}  # docs/balance's sentences
    # Built without a compiler (the fixture): every game plays its rollouts in Python, and says why.
    assert found["fast"] == {g: found["fast"][g] for g in fast.MODULES}
    assert all(v.startswith("not built") for v in found["fast"].values())
    assert found["cirque"] > 0


def _build_sdist(tree: pathlib.Path, out: pathlib.Path, backend: pathlib.Path) -> pathlib.Path:
    """``tree``'s sdist, made by its declared backend (setuptools' PEP 517 hook, as ``python -m build`` calls it)."""
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--target", str(backend), "setuptools>=77", "wheel"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if install.returncode:
        pytest.skip("no build backend can be installed here (pip needs setuptools from an index)")
    env = {**os.environ, "PYTHONPATH": str(backend)}
    hook = f"from setuptools import build_meta; print(build_meta.build_sdist({str(out)!r}))"
    run = subprocess.run([sys.executable, "-c", hook], cwd=tree, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return out / run.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_a_wheel_built_from_the_sdist_ships_every_document(tmp_path: pathlib.Path) -> None:
    # pip and build make the wheel from the sdist, so the sdist must carry every document setup.py copies.
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in BUILD_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(src, tree / name)
    sdist = _build_sdist(tree, tmp_path / "sdist", tmp_path / "backend")
    out = tmp_path / "wheel"
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(sdist), "--no-deps", "-q", "-w", str(out)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    (whl,) = out.glob("boardlab-*.whl")
    names = set(zipfile.ZipFile(whl).namelist())
    for kind in ("rules", "ai", "balance"):
        docs_on_file = {f"boardlab/docs/{kind}/{doc.name}" for doc in (ROOT / "docs" / kind).glob("*.md")}
        assert docs_on_file and docs_on_file <= names, (kind, sorted(docs_on_file - names)[:3])
    for g in boardlab.games():
        need("balance", g)
    assert {f"boardlab/docs/balance/{g}.md" for g in boardlab.games()} <= names
    # The compiled rollouts' sources travel in the sdist, so a wheel built from it can compile them.
    with tarfile.open(sdist) as tar:
        shipped = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    for name in [*(f"{m}.pyx" for m in fast.MODULES.values()), "_rng.pxi", "_mt.h"]:
        assert f"src/boardlab/fast/{name}" in shipped
    if shutil.which("cc") or shutil.which("gcc"):
        assert compiled_modules(names) == set(fast.MODULES.values())
