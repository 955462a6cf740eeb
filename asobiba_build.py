"""Build step of the package (pyproject.toml, ``[tool.setuptools.cmdclass]``): setuptools'
``build_py`` that also puts ``asobiba-gymnasium.pth`` at the top of the wheel, beside the
packages, so that an installed asobiba registers its Gymnasium ids when Gymnasium is imported
(asobiba_gymnasium_hook.py says how). Setuptools has no setting for a top-level .pth."""

from __future__ import annotations

import os

from setuptools.command.build_py import build_py
from setuptools.command.editable_wheel import editable_wheel

PTH = "asobiba-gymnasium.pth"
HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):  # type: ignore[misc]
    def run(self) -> None:
        super().run()
        self.copy_file(os.path.join(HERE, PTH), os.path.join(self.build_lib, PTH),
                       preserve_mode=False)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]

    def get_output_mapping(self) -> dict[str, str]:
        return {**super().get_output_mapping(),
                os.path.join(self.build_lib, PTH): os.path.join(HERE, PTH)}


class _WithPth:
    """An editable-install strategy of setuptools, plus the .pth line written into the
    editable wheel (whose own .pth only makes the sources importable)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def __enter__(self) -> _WithPth:
        self.inner.__enter__()  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: object) -> object:
        return self.inner.__exit__(*exc)  # type: ignore[attr-defined]

    def __call__(self, wheel: object, files: list[str], mapping: dict[str, str]) -> None:
        self.inner(wheel, files, mapping)  # type: ignore[operator]
        with open(os.path.join(HERE, PTH), encoding="utf-8") as f:
            wheel.writestr(PTH, f.read())  # type: ignore[attr-defined]


class EditableWheel(editable_wheel):  # type: ignore[misc]
    """``pip install -e``: setuptools' editable wheel with the .pth line too. Wraps
    ``_select_strategy`` (setuptools 64 to 84 at least: tests/envs/test_wheel.py installs
    both ways in a fresh environment and fails if the line goes missing)."""

    def _select_strategy(self, *args: object, **kwargs: object) -> _WithPth:
        return _WithPth(super()._select_strategy(*args, **kwargs))
