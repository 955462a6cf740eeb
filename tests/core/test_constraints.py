"""constraints.txt, the versions every install gets (Makefile), against pyproject.toml's
ranges: each package pyproject.toml asks for is pinned there, at a version its range allows,
and nothing is pinned twice. A stale lock (a range raised in pyproject.toml and not re-locked)
fails here, not as a confusing resolver error in CI."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOCKED_EXTRAS = ("dev", "web", "paper", "postgres", "scale", "rl", "bench", "learned", "train")


def pins() -> dict[str, Version]:
    found: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep, f"constraints.txt pins exact versions only: {line!r}"
        key = canonicalize_name(name)
        assert key not in found, f"{name} is pinned twice"
        found[key] = Version(version)
    return found


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in LOCKED_EXTRAS:
        wanted += project["optional-dependencies"][extra]
    # an extra that pulls in another of asobiba's own ("asobiba[web]") pins nothing itself
    return [r for r in map(Requirement, wanted) if canonicalize_name(r.name) != "asobiba"]


def test_every_requirement_is_pinned_within_its_range() -> None:
    locked = pins()
    assert len(locked) > 20  # the whole resolution, not the direct requirements only
    for req in requirements():
        key = canonicalize_name(req.name)
        assert key in locked, f"{req.name} ({req}) is not in constraints.txt: run make lock"
        assert req.specifier.contains(locked[key], prereleases=True), (
            f"constraints.txt pins {req.name}=={locked[key]}, outside pyproject's {req}: "
            "run make lock")


def test_the_installed_versions_are_the_locked_ones() -> None:
    """What this run tests is what the lock says (make test installs with -c constraints.txt)."""
    from importlib.metadata import PackageNotFoundError, version

    locked = pins()
    for req in requirements():
        key = canonicalize_name(req.name)
        try:
            installed = Version(version(req.name))
        except PackageNotFoundError:  # an extra this environment did not install (bench)
            continue
        assert installed == locked[key], f"{req.name} {installed} installed, {locked[key]} locked"
