"""Ship ``docs/{rules,ai,balance}/*.md`` inside the package, and build the optional compiled rollouts.

The documents stay where people read and edit them (``docs/``, the one source);
building the package copies them in as ``boardlab/docs/{rules,ai,balance}/``, so
an installed wheel finds the rules (``boardlab.docs``) and the measured level
ratings (``boardlab.agents.levels``) as package data.

The compiled rollouts (``src/boardlab/fast/_*.pyx``, see ``boardlab.fast``) are
Cython modules built into C extensions. They are optional: without Cython (a
build requirement in ``pyproject.toml``, so pip normally installs it) or without
a C compiler the package builds without them, and the games play their rollouts
in pure Python. ``python setup.py build_ext --inplace`` builds them into the
source tree (``make fast``). Everything else is declared in ``pyproject.toml``.
"""

from __future__ import annotations

import pathlib
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
#: Documents shipped with the package: ``docs/<kind>/*.md`` → ``boardlab/docs/<kind>/``.
SHIPPED_DOCS = ("rules", "ai", "balance")


class build_py_with_docs(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads docs/ from the source tree
        docs = self._docs()
        missing = [kind for kind in SHIPPED_DOCS if not any(dst.parent.name == kind for _, dst in docs)]
        if missing:  # e.g. an sdist made without them: MANIFEST.in must list every kind
            raise RuntimeError(f"no docs/{missing[0]}/*.md to ship: is docs/{missing[0]} listed in MANIFEST.in?")
        for src, dst in docs:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *(str(dst) for _, dst in self._docs())]

    def _docs(self) -> list[tuple[pathlib.Path, pathlib.Path]]:
        out = pathlib.Path(self.build_lib) / "boardlab" / "docs"
        return [(p, out / kind / p.name) for kind in SHIPPED_DOCS for p in sorted((ROOT / "docs" / kind).glob("*.md"))]


FAST = ROOT / "src" / "boardlab" / "fast"


def fast_extensions() -> list[Extension]:
    """One optional C extension per ``boardlab/fast/_<game>.pyx`` (none if Cython is missing)."""
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("boardlab: Cython is not installed; the compiled rollouts are not built (pure Python)")
        return []
    sources = sorted(FAST.glob("_*.pyx"))
    exts = [
        Extension(
            f"boardlab.fast.{p.stem}",
            [str(p.relative_to(ROOT))],
            include_dirs=[str(FAST.relative_to(ROOT))],
            extra_compile_args=["-O2"] if sys.platform != "win32" else [],
            optional=True,  # a failed compile leaves that game on the pure-Python rollouts
        )
        for p in sources
    ]
    return cythonize(exts, language_level=3, quiet=True)


class optional_build_ext(build_ext):
    """Build the compiled rollouts when a C compiler is there; warn and go on without them when it is not."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (setuptools raises before trying each extension)
            print(f"boardlab: the compiled rollouts were not built ({exc}); the games use pure Python")


setup(
    cmdclass={"build_py": build_py_with_docs, "build_ext": optional_build_ext},
    ext_modules=fast_extensions(),
)
