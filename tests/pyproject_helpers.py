"""What pyproject.toml declares, for tests that pin a library range a private reach was checked against."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def declared(name: str) -> Requirement:
    """The requirement on `name`, from the dependencies or any extra."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    every = [
        *project["dependencies"],
        *(d for extra in project["optional-dependencies"].values() for d in extra),
    ]
    return next(r for r in map(Requirement, every) if r.name == name)


def installed_in_declared_range(name: str) -> tuple[bool, str, str]:
    """(the installed version is in the declared range, that version, the range)."""
    requirement = declared(name)
    return requirement.specifier.contains(version(name)), version(name), str(requirement.specifier)
