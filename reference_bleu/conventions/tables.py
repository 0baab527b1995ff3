"""The spec's tables of options, axes and profiles, generated from the registry and the profiles
(spec API-OPTIONS, CONV-SPACE, CONV-PROFILES).

The options, axes and their values (:mod:`reference_bleu.conventions.registry`), the profiles' points and
their text rules (:mod:`reference_bleu.conventions.profiles`) are written once, in the code; chapters 04
and 13 show them between markers that this module rewrites. ``python -m reference_bleu.conventions.tables
--write`` regenerates them; ``--check`` exits 1 when a chapter and the code disagree (the spec
self-test runs the same comparison).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.profiles import (
    PRINTED_FORMS_DATA,
    PROFILES,
    Family,
    axis_values,
    paper_differences,
    resolve,
)
from reference_bleu.conventions.registry import AXES, BY_NAME, OPTION_FIELDS, Axis, Field

#: The spec's folder, and the chapter of the convention space.
SPEC = Path(__file__).resolve().parents[2] / "spec"
CHAPTER = SPEC / "13-conventions.md"
_BLOCK = re.compile(r"(<!-- generated: (?P<name>[a-z]+) -->\n)(?P<body>.*?)(<!-- end of generated -->)", re.S)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    return "\n".join([_row(header), "|" + "---|" * len(header), *(_row(r) for r in rows)]) + "\n"


def _anchor(spec_id: str) -> str:
    return f"`{spec_id}`"


def _paper_of(axis: Axis) -> dict[str, Any]:
    """The paper's assignment of the axis's fields."""
    return {f: BY_NAME[f].paper for f in axis.fields}


def _key(axis: Axis, values: Mapping[str, Any]) -> tuple[Any, ...]:
    """What names a value of the axis: its declared fields' values (a number refining it aside)."""
    return tuple(values[f] for f in axis.fields if BY_NAME[f].kind in ("choice", "flag"))


def _point(name: str) -> dict[str, Any]:
    """Every field's value at a profile's default point."""
    profile = resolve(name)
    options = make_options(**profile.options)
    return {**profile.text, **{f: getattr(options, f) for f in OPTION_FIELDS}}


@functools.cache
def _chapters() -> dict[str, str]:
    """Each spec section's ID (a ``## ID`` or ``## ID — title`` heading) with its chapter's file,
    the first chapter heading it; the chapters are read once."""
    found: dict[str, str] = {}
    for chapter in sorted(SPEC.glob("[0-9]*.md")):
        for spec_id in re.findall(r"^## (\S+)(?: |$)", chapter.read_text(encoding="utf-8"), re.M):
            found.setdefault(spec_id, chapter.name)
    return found


def _entry(spec_id: str) -> str:
    """A link to the spec section ``spec_id`` heads."""
    if spec_id not in _chapters():
        raise ValueError(f"no spec section is headed {spec_id}")
    return f"[{spec_id}]({_chapters()[spec_id]}#{spec_id.lower()})"


def _shown_default(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return f"`{value}`" if isinstance(value, str) else str(value)


def options_table() -> str:
    """API-OPTIONS. Every option of ``corpus_bleu``: its values (a choice's, or what it takes), the
    paper's value, the entry that documents it."""
    rows = []
    for name in OPTION_FIELDS:
        field = BY_NAME[name]
        if field.kind == "choice":
            values = ", ".join(f"`{v}`" for v in field.values)
        elif field.kind == "flag":
            values = "bool"
        else:
            values = field.meaning
        rows.append((f"`{name}`", values, _shown_default(field.paper), _entry(field.spec_id)))
    return _table(("option", "values", "default", "entry"), rows)


def axes_table() -> str:
    """CONV-SPACE. Every axis: its fields, the paper's value, its entry, the function computing it."""
    rows = [
        (
            f"`{axis.name}`",
            ", ".join(f"`{f}`" for f in axis.fields),
            axis.field.group,
            f"`{axis.shown(_paper_of(axis))}`",
            _anchor(axis.field.spec_id),
            ", ".join(dict.fromkeys(f"`{f.implemented_by}`" for f in (axis.field, *axis.refinements))),
        )
        for axis in AXES.values()
    ]
    return _table(("axis", "fields", "group", "the paper's value", "entry", "implemented by"), rows)


def _takers(axis: Axis) -> dict[tuple[Any, ...], list[str]]:
    """The profiles (at their default parameters) taking each value of an axis."""
    found: dict[tuple[Any, ...], list[str]] = {}
    for name in PROFILES:
        found.setdefault(_key(axis, _point(name)), []).append(name)
    return found


def _meaning(field: Field, value: Any) -> str:
    """A value's meaning: the registry's, or for a flag its meaning when set and "no" when not."""
    if field.kind == "flag":
        return field.meaning if value else "no"
    return field.values[value]


def values_table() -> str:
    """CONV-SPACE. Every declared value of every axis with its meaning and the profiles that take it."""
    rows = []
    for axis in AXES.values():
        takers = _takers(axis)
        for assignment in axis.assignments():
            shown = axis.shown(assignment)
            refinement = next((f for f in axis.refinements if assignment[f.name] != f.paper), None)
            meaning = refinement.meaning if refinement else _meaning(axis.field, assignment[axis.name])
            paper = _key(axis, assignment) == _key(axis, _paper_of(axis))
            names = ", ".join(f"`{n}`" for n in takers.get(_key(axis, assignment), []))
            rows.append(
                (f"`{axis.name}`", f"`{shown}`", meaning, "the paper's, and the rest" if paper else names)
            )
    return _table(("axis", "value", "meaning", "profiles taking it (at their defaults)"), rows)


def profiles_table() -> str:
    """CONV-PROFILES. Every profile family: tool, what it is, where it differs from the paper, parameters,
    and the printed form of its tool (spec chapter 16)."""
    rows = []
    for name, family in PROFILES.items():
        profile = resolve(name)
        differs = "; ".join(f"`{axis}={value}`" for axis, value, _ in paper_differences(profile)) or "none"
        parameters = ", ".join([*family.parameters, *family.numeric])
        printed = profile.printed
        form = f"`{printed}` ({_entry(PRINTED_FORMS_DATA[printed]['spec'])})" if printed else ""
        rows.append(
            (f"`{name}`", f"{profile.tool} {profile.version}", profile.summary, differs, parameters, form)
        )
    header = (
        "profile",
        "tool, version",
        "what it is",
        "differs from `paper` (axis=value)",
        "parameters",
        "printed",
    )
    return _table(header, rows)


def parameters_table() -> str:
    """CONV-PARAMETERS. Every parameter of every family: its values (the default first), what the tool
    calls it, and the axes its values set, as the family's rules in ``profiles.json`` say."""
    rows = []
    for name, family in PROFILES.items():
        declared = family.data.get("parameters", {})
        for parameter in [*family.parameters, *family.numeric]:
            spec = declared.get(parameter) or _inherited(family, parameter)
            if parameter in family.numeric:
                values = "a number"
            else:
                default = family.defaults[parameter]
                others = [v for v in family.parameters[parameter] if v != default]
                values = ", ".join([f"`{default}` (default)", *(f"`{v}`" for v in others)])
            rows.append(
                (f"`{name}`", f"`{parameter}`", values, spec["meaning"], _fields_set(family, parameter))
            )
    return _table(("profile", "parameter", "values", "the tool's", "sets (fields, by the rules below)"), rows)


def _inherited(family: Family, parameter: str) -> dict[str, Any]:
    parent = family.parent
    while parent is not None and parameter not in parent.data.get("parameters", {}):
        parent = parent.parent
    if parent is None:
        raise ValueError(f"profile {family.name}: parameter {parameter} is declared nowhere")
    declared: dict[str, Any] = parent.data["parameters"][parameter]
    return declared


def _rules(family: Family) -> list[dict[str, Any]]:
    """The rules that build the family's profiles, the extended family's first."""
    inherited = _rules(family.parent) if family.parent is not None else []
    return [*inherited, *family.data.get("rules", ())]


def _fields_set(family: Family, parameter: str) -> str:
    """The fields a parameter's value decides: those of every rule that tests it or takes its value."""
    fields: list[str] = []
    for rule in _rules(family):
        takes = [
            field
            for group in ("options", "text", "sentence_options")
            for field, value in rule.get(group, {}).items()
            if parameter in rule.get("when", {})
            or (isinstance(value, dict) and value["parameter"] == parameter)
        ]
        if parameter in rule.get("when", {}) and rule.get("raises"):
            takes.append("raises")
        fields += [f for f in takes if f not in fields]
    return ", ".join(f"`{f}`" for f in fields) or "nothing"


def _shown_assignment(field: str, value: Any) -> str:
    if not isinstance(value, dict):
        return f"`{field}={value}`"
    if "map" in value:
        mapped = ", ".join(f"`{k}` → `{v}`" for k, v in value["map"].items())
        return f"`{field}` = `{value['parameter']}` mapped: {mapped}"
    kind = " (an integer)" if value.get("type") == "integer" else ""
    return f"`{field}` = the value of `{value['parameter']}`{kind}"


def rules_table() -> str:
    """CONV-PARAMETERS. Every rule of ``profiles.json``: the family, its condition on the parameters,
    and what it sets (options, text conventions, ``-sl``'s options, exceptions), in the order applied."""
    rows = []
    for name, family in PROFILES.items():
        if family.parent is not None and family.data.get("rules"):
            rows.append((f"`{name}`", f"(first every rule of `{family.parent.name}`)", ""))
        for rule in family.data.get("rules", ()):
            when = " and ".join(
                f"`{k}` in {', '.join(f'`{x}`' for x in v)}" if isinstance(v, list) else f"`{k}={v}`"
                for k, v in rule.get("when", {}).items()
            )
            sets = [
                _shown_assignment(f, v)
                for group in ("options", "text")
                for f, v in rule.get(group, {}).items()
            ]
            sets += [
                f"under -sl: {_shown_assignment(f, v)}" for f, v in rule.get("sentence_options", {}).items()
            ]
            sets += [f"raises `{k}`: {v}" for k, v in rule.get("raises", {}).items()]
            rows.append((f"`{name}`", when or "always", "; ".join(sets)))
    return _table(("profile", "when", "sets"), rows)


def text_table() -> str:
    """CONV-PROFILES. How each profile's text becomes tokens: what it takes, the text axes, the source."""
    rows = []
    for name, family in PROFILES.items():
        values = axis_values(resolve(name))
        text = [f"`{values[axis]}`" for axis in ("tokenize", "lowercase", "case_order", "split")]
        rows.append((f"`{name}`", family.takes, *text, family.text_rule))
    header = ("profile", "the tool takes", "tokenize", "lowercase", "case folded", "split", "from the source")
    return _table(header, rows)


#: The generated blocks of each chapter, by the name after ``<!-- generated:``.
GENERATED: dict[Path, dict[str, Callable[[], str]]] = {
    SPEC / "04-corpus.md": {"options": options_table},
    CHAPTER: {
        "axes": axes_table,
        "values": values_table,
        "profiles": profiles_table,
        "parameters": parameters_table,
        "rules": rules_table,
        "text": text_table,
    },
}


def _families_complete(family: Family) -> bool:
    return bool(family.takes and family.text_rule)


def generated_chapter(text: str, chapter: Path = CHAPTER) -> str:
    """The chapter with every generated block rewritten from the code."""
    missing = [name for name, family in PROFILES.items() if not _families_complete(family)]
    if missing:
        raise ValueError(f"profiles without their text rule (takes, text_rule): {', '.join(missing)}")
    blocks = GENERATED[chapter]
    found = {m.group("name") for m in _BLOCK.finditer(text)}
    if found != set(blocks):
        raise ValueError(
            f"{chapter.name} must hold the generated blocks {sorted(blocks)}, has {sorted(found)}"
        )
    return _BLOCK.sub(lambda m: m.group(1) + blocks[m.group("name")]() + m.group(4), text)


def main(argv: Sequence[str] | None = None) -> int:
    """``--write`` regenerates the chapters' tables; ``--check`` (the default) exits 1 when out of date."""
    args = list(sys.argv[1:] if argv is None else argv)
    stale = []
    for chapter in GENERATED:
        text = chapter.read_text(encoding="utf-8")
        fresh = generated_chapter(text, chapter)
        if "--write" in args:
            chapter.write_text(fresh, encoding="utf-8")
        elif fresh != text:
            stale.append(chapter)
    for chapter in stale:
        print(
            f"{chapter} is out of date: run python -m reference_bleu.conventions.tables --write",
            file=sys.stderr,
        )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
