"""Ship ``docs/{rules,ai,balance}/*.md`` inside the package as ``boardlab/docs/{rules,ai,balance}/``.

The documents stay where people read and edit them (``docs/``, the one source);
building the package copies them in, so an installed wheel finds the rules
(``boardlab.docs``) and the measured level ratings (``boardlab.agents.levels``)
as package data. Everything else is declared in ``pyproject.toml``.
"""

from __future__ import annotations

import pathlib
import shutil

from setuptools import setup
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


setup(cmdclass={"build_py": build_py_with_docs})
