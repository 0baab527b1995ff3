"""The zoo's data: every real BLEU implementation the runner is checked on, with its truth (spec
CONF-ZOO).

``zoo.json`` (schema ``zoo.schema.json``, both beside this file) holds the environments and the
entries. An entry names a package and its pinned version, how it is called (a built-in target of
the harness or an adapter file in ``adapters/`` that changes calling conventions only), what it
takes (input kind, levels, references), the runner's arguments it needs, and its **truth**,
written from its source in the pinned version before the runner was asked: the verdict expected
against the paper (level, and the point when a profile is that point), the conventions the
runner must name (each axis where it is not the paper, with its value), and the source line
behind every axis. ``gaps`` records where today's runner disagrees with the truth, with the
reason: the zoo tier marks those checks as expected failures (strict), so that they turn red the
day the runner is fixed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from conformance.zoo.environments import KINDS, Environment

HERE = Path(__file__).resolve().parent
DATA = HERE / "zoo.json"
SCHEMA = HERE / "zoo.schema.json"
ADAPTERS = HERE / "adapters"
#: The verdict levels of CONF-VERDICT, as the runner's JSON report spells them.
LEVELS = ("conformant", "variant", "not conformant", "insufficient evidence")
#: The two checks of an entry (the zoo tier's tests, and ``gaps``' keys).
CHECKS = ("verdict", "conventions")


class ZooDataError(Exception):
    """``zoo.json`` is malformed: the entry and what is wrong (spec CONF-ZOO)."""


@dataclass(frozen=True)
class Evidence:
    """One axis of an implementation as its source has it: the value and the line behind it."""

    axis: str
    value: str
    evidence: str
    registry: bool = True


@dataclass(frozen=True)
class Truth:
    """What the implementation computes, from its source: the expected verdict against the paper."""

    level: str
    summary: str
    #: The axes where it is not the paper, as the runner must name them (its verdict's ``differs``
    #: and ``choices``, axis -> value): only the axes the runner can observe on the references the
    #: tool takes.
    conventions: dict[str, str]
    #: The profile at its point, when one is (the verdict's ``point``).
    point: str = ""
    #: Every axis with its source line, or, for a tool with a profile, the profile's own evidence.
    evidence: tuple[Evidence, ...] = ()
    profile: str = ""
    #: Conventions and bugs the registry has no value for.
    outside: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """One implementation of the zoo."""

    name: str
    package: str
    version: str
    registry: str
    language: str
    kind: str
    summary: str
    environment: Environment
    call: str
    input: str
    levels: tuple[str, ...]
    references: str
    truth: Truth
    builtin: str = ""
    adapter: str = ""
    runner_args: tuple[str, ...] = ()
    gaps: dict[str, str] = field(default_factory=dict)
    digest: str = ""

    @property
    def adapter_path(self) -> Path | None:
        return ADAPTERS / self.adapter if self.adapter else None

    def target(self) -> str:
        """What the harness serves: a built-in (``nltk[method=4]``) or the adapter's ``module:ADAPTER``."""
        if self.builtin:
            return self.builtin
        return f"conformance.zoo.adapters.{Path(self.adapter).stem}:ADAPTER"


def _evidence(axes: dict[str, Any]) -> tuple[Evidence, ...]:
    return tuple(
        Evidence(axis, str(a["value"]), a["evidence"], bool(a.get("registry", True)))
        for axis, a in axes.items()
    )


def _digest(raw: dict[str, Any], environment: Environment) -> str:
    """What a run of the entry depends on: the package, its environment's pins, the target or the
    adapter's text, the runner's arguments (its truth is not: a truth corrected needs no new run)."""
    adapter = ADAPTERS / raw["adapter"] if raw.get("adapter") else None
    made_of = [
        raw["package"],
        raw["version"],
        environment.kind,
        sorted(environment.requirements),
        raw.get("builtin", ""),
        adapter.read_text(encoding="utf-8") if adapter and adapter.exists() else "",
        raw.get("runner_args", []),
    ]
    return hashlib.sha256(json.dumps(made_of).encode()).hexdigest()[:16]


def _entry(raw: dict[str, Any], environments: dict[str, Environment]) -> Entry:
    name = raw.get("name", "?")
    try:
        truth = raw["truth"]
        if raw["environment"] not in environments:
            raise ZooDataError(f"zoo entry {name}: no environment {raw['environment']!r} (spec CONF-ZOO)")
        if bool(raw.get("builtin")) == bool(raw.get("adapter")):
            raise ZooDataError(f"zoo entry {name}: give exactly one of builtin and adapter (spec CONF-ZOO)")
        if truth["level"] not in LEVELS:
            raise ZooDataError(f"zoo entry {name}: level {truth['level']!r} is not one of {LEVELS}")
        unknown = set(raw.get("gaps", {})) - set(CHECKS)
        if unknown:
            raise ZooDataError(f"zoo entry {name}: gaps name no check {sorted(unknown)} (checks: {CHECKS})")
        digest = _digest(raw, environments[raw["environment"]])
        return Entry(
            name=name,
            package=raw["package"],
            version=raw["version"],
            registry=raw["registry"],
            language=raw["language"],
            kind=raw["kind"],
            summary=raw["summary"],
            environment=environments[raw["environment"]],
            call=raw["call"],
            input=raw["input"],
            levels=tuple(raw["levels"]),
            references=raw["references"],
            builtin=raw.get("builtin", ""),
            adapter=raw.get("adapter", ""),
            runner_args=tuple(raw.get("runner_args", ())),
            gaps=dict(raw.get("gaps", {})),
            truth=Truth(
                level=truth["level"],
                summary=truth["summary"],
                conventions=dict(truth["conventions"]),
                point=truth.get("point", ""),
                evidence=_evidence(truth.get("evidence", {})),
                profile=truth.get("profile", ""),
                outside=tuple(truth.get("outside", ())),
            ),
            digest=digest,
        )
    except KeyError as missing:
        raise ZooDataError(f"zoo entry {name}: no {missing} (spec CONF-ZOO)") from None


def load_document(path: Path = DATA) -> dict[str, Any]:
    """``zoo.json`` as JSON (the schema's document)."""
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@cache
def load(path: Path = DATA) -> tuple[Entry, ...]:
    """Every entry of the zoo, in the data's order; a :class:`ZooDataError` names a bad one."""
    document = load_document(path)
    environments: dict[str, Environment] = {}
    for name, raw in document["environments"].items():
        if raw["kind"] not in KINDS:
            raise ZooDataError(f"zoo environment {name}: kind {raw['kind']!r} is not one of {KINDS}")
        environments[name] = Environment(
            name, raw["kind"], tuple(raw.get("requirements", ())), raw.get("note", "")
        )
    entries = tuple(_entry(raw, environments) for raw in document["entries"])
    names = [e.name for e in entries]
    if len(set(names)) != len(names):
        raise ZooDataError(f"zoo entries named twice: {sorted({n for n in names if names.count(n) > 1})}")
    return entries


def environments(path: Path = DATA) -> dict[str, Environment]:
    """The environments the entries use, by name."""
    return {e.environment.name: e.environment for e in load(path)}


def select(names: list[str], path: Path = DATA) -> list[Entry]:
    """The entries named (every entry when none is); a :class:`ZooDataError` for an unknown name."""
    entries = load(path)
    if not names:
        return list(entries)
    by_name = {e.name: e for e in entries}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ZooDataError(f"no zoo entry {', '.join(unknown)} (reference-bleu zoo list names them)")
    return [by_name[n] for n in names]
