"""Mapping a human app name ("Amazon", "google maps", "Settings") to an installed package.

A virtual phone lists its apps and labels (`cmd masbench apps`); a real device only lists packages, so
the catalog's table names the MAS-Bench apps and the system apps tasks use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from masbench.catalog import APPS

from .errors import AppNotFoundError

# package -> human names (the first is the launcher label), from the catalog
KNOWN_APPS: dict[str, tuple[str, ...]] = {a.package: (a.label, a.name, *a.aliases) for a in APPS.values()}


def normalize(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.lower())


def resolve_app(name: str, installed: Mapping[str, str]) -> str:
    """The one package in `installed` (package → label) that `name` means.

    Tried in order, the first rule with exactly one hit wins: the package itself; an exact label; a
    built-in alias; a label that starts with the name; a package segment equal to the name; a label or
    package containing the name. No hit or a tie raises AppNotFoundError listing the candidates.
    """
    query = name.strip()
    if not query:
        raise AppNotFoundError(name, sorted(installed))
    if query in installed:
        return query
    key = normalize(query)
    labels = {pkg: normalize(label or "") for pkg, label in installed.items()}
    aliases = {pkg: {normalize(a) for a in KNOWN_APPS.get(pkg, ())} for pkg in installed}
    rules: tuple[Callable[[str], bool], ...] = (
        lambda pkg: labels[pkg] == key,
        lambda pkg: key in aliases[pkg],
        lambda pkg: bool(key) and labels[pkg].startswith(key),
        lambda pkg: key in {normalize(seg) for seg in pkg.split(".")},
        lambda pkg: bool(key) and (key in labels[pkg] or key in normalize(pkg)),
    )
    for rule in rules:
        hits = sorted(pkg for pkg in installed if rule(pkg))
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise AppNotFoundError(name, [_show(p, installed) for p in hits])
    raise AppNotFoundError(
        name, [_show(p, installed) for p in sorted(installed, key=lambda p: labels[p] or p)]
    )


def _show(pkg: str, installed: Mapping[str, str]) -> str:
    label = installed.get(pkg) or ""
    return f"{label} ({pkg})" if label and label != pkg else pkg


def labels_for(packages: list[str]) -> dict[str, str]:
    """package → label for a real device's `pm list packages`, using the built-in names where known."""
    return {pkg: (KNOWN_APPS[pkg][0] if pkg in KNOWN_APPS else "") for pkg in packages}


__all__ = ["KNOWN_APPS", "labels_for", "normalize", "resolve_app"]
