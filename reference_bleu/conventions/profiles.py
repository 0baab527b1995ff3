"""Named profiles: each real BLEU tool as a point of the convention space (spec CONV-PROFILES,
CONV-PROFILE-DATA).

A profile is the reference's options (the score conventions of chapter 13) plus the text
conventions (tokenizer, case folding, split rule) and the level at which the tool scores,
with the evidence for every value: the file and line of the tool's source, and its version.
Profiles are data: ``profiles.json`` beside this module (described by ``profiles.schema.json``,
JSON Schema 2020-12) holds every family, its parameters, the rules that map each parameter value
to the axes, its printed form and its evidence, in a form a port in another language reads as it
is; this module builds the Python profiles from it (:func:`family_profile`, the procedure of spec
CONV-PROFILE-DATA). The reference computes every profile with the same code, so two profiles
differ only on the axes where their values differ. A profile never calls the tool it imitates.

A name may take parameters, ``nltk[method=4]`` or ``sacrebleu[smooth=floor,value=0.1]``;
:func:`resolve` parses them and :data:`PROFILES` lists every family with its parameters.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.registry import AXES, NOT_TEXT, OPTION_FIELDS, PAPER_TEXT, shown_values
from reference_bleu.errors import BleuOptionError

Params = Mapping[str, str]

#: The profiles' data (spec CONV-PROFILE-DATA) and its JSON Schema.
PROFILES_FILE = Path(__file__).with_name("profiles.json")
PROFILES_SCHEMA = Path(__file__).with_name("profiles.schema.json")


@dataclass(frozen=True)
class Profile:
    """A tool's conventions: reference options, text conventions, level, and evidence."""

    name: str
    tool: str
    version: str
    summary: str
    options: Mapping[str, Any]
    evidence: tuple[str, ...]
    tokenize: str = PAPER_TEXT["tokenize"]
    lowercase: str = PAPER_TEXT["lowercase"]
    split: str = PAPER_TEXT["split"]
    #: TOK-CASE-ORDER: case folded before the tokenizer (sacrebleu, mteval) or after it (torchmetrics).
    case_order: str = PAPER_TEXT["case_order"]
    #: ``corpus``: the tool scores a test set; ``sentence``: one segment at a time, so a test
    #: set's score is the mean of sentence scores (``aggregation="macro"``).
    level: str = "corpus"
    #: Exceptions the tool raises where the reference raises a BleuError (spec ID -> name).
    raises: Mapping[str, str] = field(default_factory=dict)
    #: What the tool's command line changes when it scores each segment alone (sacrebleu's ``-sl``
    #: turns effective order on): options applied under ``score --sentence-level`` (CLI-OUTPUT).
    sentence_options: Mapping[str, Any] = field(default_factory=dict)
    #: The tool's printed form (spec chapter 16), by its name in ``profiles.json``'s
    #: ``printed_forms``; ``None``: the tool prints nothing this project reproduces.
    printed: str | None = None

    @property
    def text(self) -> dict[str, str]:
        """The text conventions, as ``tokenize_line`` keywords."""
        return {name: getattr(self, name) for name in PAPER_TEXT}


@dataclass(frozen=True)
class _Pieces:
    """A profile being built: what a family's data and its rules have set so far."""

    options: dict[str, Any]
    text: dict[str, str]
    raises: dict[str, str]
    sentence_options: dict[str, Any]
    evidence: tuple[str, ...]
    level: str = "corpus"


@dataclass(frozen=True)
class Family:
    """A profile family as ``profiles.json`` declares it: a name, its parameters (with defaults and
    allowed values), its rules, and what it takes and prints (spec CONV-PROFILE-DATA)."""

    name: str
    parameters: Mapping[str, tuple[str, ...]]
    defaults: Mapping[str, str]
    #: The family's object in ``profiles.json``.
    data: Mapping[str, Any] = field(repr=False, compare=False)
    #: The family it extends, if any.
    parent: Family | None = field(default=None, repr=False, compare=False)
    #: Parameters whose value is a number, checked by the options rather than listed.
    numeric: tuple[str, ...] = ()
    #: What the tool takes: tokens (the caller's lists), text, SGML text, tokenized text.
    takes: str = ""
    #: How its text becomes tokens, from its source (file:line); "as NAME" where it is another's.
    text_rule: str = ""

    def __call__(self, params: Params) -> Profile:
        unknown = sorted(set(params) - set(self.parameters) - set(self.numeric))
        if unknown:
            known = ", ".join([*self.parameters, *self.numeric]) or "none"
            raise BleuOptionError(
                "CONV-PROFILES", f"profile {self.name!r} has no parameter {unknown[0]!r} (known: {known})"
            )
        for key, value in params.items():
            allowed = self.parameters.get(key)
            if allowed is not None and value not in allowed:
                raise BleuOptionError(
                    "CONV-PROFILES",
                    f"{self.name}[{key}=...] must be one of {', '.join(allowed)}, not {value!r}",
                )
        return family_profile(self, {**self.defaults, **params})

    def attribute(self, name: str) -> Any:
        """A field of the family's data, else of the family it extends (``tool``, ``version``,
        ``summary``; a printed form is a family's own, CONV-PROFILE-DATA)."""
        if name in self.data:
            return self.data[name]
        return self.parent.attribute(name) if self.parent is not None else None


def family_profile(family: Family, params: Params) -> Profile:
    """CONV-PROFILE-DATA. The profile of ``family`` at ``params`` (its defaults filled in), built
    from ``profiles.json`` in the order the spec states: the parent's pieces (when the family
    extends one), the family's own, then each rule whose condition holds, in order."""
    pieces = _pieces(family, params)
    return Profile(
        _named(family.name, params, family.defaults),
        family.attribute("tool"),
        family.attribute("version"),
        family.attribute("summary"),
        pieces.options,
        pieces.evidence,
        **pieces.text,
        level=pieces.level,
        raises=pieces.raises,
        sentence_options=pieces.sentence_options,
        printed=family.data.get("printed"),
    )


def _pieces(family: Family, params: Params) -> _Pieces:
    data = family.data
    base = _pieces(family.parent, params) if family.parent is not None else _Pieces({}, {}, {}, {}, ())
    evidence = tuple(data.get("evidence", ()))
    pieces = _Pieces(
        {**base.options, **_values(data.get("options", {}), params)},
        {**base.text, **_values(data.get("text", {}), params)},
        dict(data["raises"]) if "raises" in data else base.raises,
        {**base.sentence_options, **_values(data.get("sentence_options", {}), params)},
        (*base.evidence, *evidence) if data.get("inherit_evidence") else evidence,
        data.get("level", base.level),
    )
    for rule in data.get("rules", ()):
        if all(_holds(value, params.get(name)) for name, value in rule.get("when", {}).items()):
            pieces.options.update(_values(rule.get("options", {}), params))
            pieces.text.update(_values(rule.get("text", {}), params))
            pieces.raises.update(rule.get("raises", {}))
            pieces.sentence_options.update(_values(rule.get("sentence_options", {}), params))
    return pieces


def _holds(condition: str | list[str], value: str | None) -> bool:
    """A rule's condition on one parameter: its value, or one of a list of values."""
    return value in condition if isinstance(condition, list) else value == condition


_POWER = re.compile(r"^(\d+)\^(-?\d+)$")


def _values(assigned: Mapping[str, Any], params: Params) -> dict[str, Any]:
    """Field values as a family or rule assigns them: a value; ``{"parameter": P}`` (the
    parameter's value, through ``map`` or as an ``integer``; the field is left out when a numeric
    parameter was not given); a number written ``b^e`` as its exact value."""
    out: dict[str, Any] = {}
    for name, value in assigned.items():
        if isinstance(value, dict):
            given = params.get(value["parameter"])
            if given is None:
                continue
            mapped = value["map"][given] if "map" in value else given
            out[name] = int(mapped) if value.get("type") == "integer" else mapped
        elif isinstance(value, str) and (power := _POWER.match(value)):
            out[name] = Fraction(int(power.group(1))) ** int(power.group(2))
        else:
            out[name] = value
    return out


def _families(document: Mapping[str, Any]) -> dict[str, Family]:
    """Every family of the profiles' data, in the file's order (an extended family first), each
    checked against what the builder reads: a rule names the family's own parameters and their
    values, a printed form is declared (a ValueError otherwise; the schema says the rest)."""
    families: dict[str, Family] = {}
    for data in document["families"]:
        parent = families[data["extends"]] if "extends" in data else None
        parameters = dict(parent.parameters) if parent else {}
        numeric = list(parent.numeric) if parent else []
        defaults = dict(parent.defaults) if parent else {}
        for name, spec in data.get("parameters", {}).items():
            if spec.get("numeric"):
                numeric.append(name)
            else:
                parameters[name] = tuple(spec["values"])
                defaults[name] = spec["default"]
        defaults.update(data.get("defaults", {}))
        family = Family(
            data["name"],
            parameters,
            defaults,
            data,
            parent,
            numeric=tuple(numeric),
            takes=data["takes"],
            text_rule=data["text_rule"],
        )
        _check(family, document["printed_forms"])
        families[family.name] = family
    return families


def _check(family: Family, printed_forms: Mapping[str, Any]) -> None:
    """What :func:`family_profile` reads of a family must name its parameters, values and forms."""
    known = {*family.parameters, *family.numeric}
    for rule in family.data.get("rules", ()):
        for name, condition in rule.get("when", {}).items():
            values = condition if isinstance(condition, list) else [condition]
            if name not in family.parameters or not set(values) <= set(family.parameters[name]):
                raise ValueError(
                    f"profile {family.name}: a rule's condition {name}={condition} is not a value"
                )
        for group in ("options", "text", "sentence_options"):
            for value in rule.get(group, {}).values():
                if isinstance(value, dict) and value["parameter"] not in known:
                    raise ValueError(f"profile {family.name}: no parameter {value['parameter']}")
    printed = family.data.get("printed")
    if printed is not None and printed not in printed_forms:
        raise ValueError(f"profile {family.name}: no printed form {printed}")


#: The profiles' data as ``profiles.json`` holds it.
PROFILES_DATA: dict[str, Any] = json.loads(PROFILES_FILE.read_text(encoding="utf-8"))
#: The tools' printed forms (spec chapter 16), by the name a profile's ``printed`` gives.
PRINTED_FORMS_DATA: dict[str, Any] = PROFILES_DATA["printed_forms"]


#: Every profile family, by name, as ``profiles.json`` lists them.
PROFILES: dict[str, Family] = _families(PROFILES_DATA)

_NAME = re.compile(r"^([a-z0-9][a-z0-9.\-]*)(?:\[(.*)\])?$")


def _named(family: str, params: Params, defaults: Params) -> str:
    """``family[k=v,...]`` listing the parameters that differ from the defaults, in a fixed order."""
    shown = [f"{k}={params[k]}" for k in sorted(params) if params[k] != defaults.get(k)]
    return f"{family}[{','.join(shown)}]" if shown else family


def resolve(name: str) -> Profile:
    """CONV-PROFILES. The profile called ``name``, e.g. ``nltk``, ``nltk[method=4]``.

    >>> resolve("nltk[method=4]").options["smoothing"]
    'nltk-4'
    >>> resolve("sacrebleu").tokenize
    '13a'
    """
    if not isinstance(name, str):
        raise BleuOptionError("CONV-PROFILES", f"a profile is named by a string, got {type(name).__name__}")
    match = _NAME.match(name.strip())
    if not match or match.group(1) not in PROFILES:
        raise BleuOptionError("CONV-PROFILES", f"unknown profile {name!r}; known: {', '.join(PROFILES)}")
    params: dict[str, str] = {}
    for item in filter(None, (match.group(2) or "").split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BleuOptionError("CONV-PROFILES", f"profile parameter {item!r} is not key=value")
        params[key.strip()] = value.strip()
    return PROFILES[match.group(1)](params)


def profile_options(profile: Profile, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The profile's options with ``overrides`` applied; also the names of the options overridden."""
    changed = tuple(sorted(k for k in overrides if profile.options.get(k, _MISSING) != overrides[k]))
    return {**profile.options, **overrides}, changed


_MISSING = object()


def option_axes(options: Mapping[str, Any]) -> dict[str, str]:
    """The value on every axis of the registry but the text's (spec CONV-SPACE) at the point
    ``options``, as short strings; the options are validated (a BleuOptionError if refused)."""
    validated = make_options(**options)
    return shown_values({name: getattr(validated, name) for name in OPTION_FIELDS}, NOT_TEXT)


#: The spec entry that defines each axis of :func:`axis_values` (spec CONV-SPACE): the level's, then
#: the registry's.
AXIS_ENTRIES = {"level": "EC-009", **{name: axis.field.spec_id for name, axis in AXES.items()}}


def paper_differences(profile: Profile) -> list[tuple[str, str, str]]:
    """Every axis where ``profile`` is not the paper: (axis, the profile's value, spec entry)."""
    paper = axis_values(resolve("paper"))
    return [
        (axis, value, AXIS_ENTRIES[axis])
        for axis, value in axis_values(profile).items()
        if value != paper[axis]
    ]


def axis_values(profile: Profile) -> dict[str, str]:
    """The profile's value on every axis of CONV-SPACE (text axes and level too), defaults filled in."""
    text = shown_values(profile.text, ("text",))
    return {"level": profile.level, **text, **option_axes(profile.options)}


def profile_table(profiles: list[Profile], width: int = 100) -> str:
    """Every profile, one entry each within ``width`` columns: ``paper``'s value on every axis, then
    each other profile's tool and the axes where it differs from ``paper`` (``axis=value``)."""

    paper = axis_values(resolve("paper"))
    lines = []
    for profile in profiles:
        values = axis_values(profile)
        shown = [f"{k}={v}" for k, v in values.items() if profile.name == "paper" or v != paper[k]]
        head = f"{profile.name} ({profile.tool} {profile.version}):"
        body = " ".join(shown) if shown else "as paper"
        lines += textwrap.wrap(
            f"{head} {body}", width, subsequent_indent="    ", break_on_hyphens=False, break_long_words=False
        )
    params = [
        f"{name}[{','.join([*f.parameters, *f.numeric])}]"
        for name, f in PROFILES.items()
        if f.parameters or f.numeric
    ]
    lines += ["", *textwrap.wrap("parameters: " + "; ".join(params), width, subsequent_indent="    ")]
    return "\n".join(lines)


def describe_profile(profile: Profile) -> str:
    """One profile: what it is, its value on every axis, and the evidence for them."""
    lines = [f"{profile.name}: {profile.tool} {profile.version}", f"  {profile.summary}", "  axes:"]
    lines += [f"    {k}: {v}" for k, v in axis_values(profile).items()]
    lines.append("  evidence:")
    lines += [f"    - {e}" for e in profile.evidence]
    if profile.raises:
        lines.append("  raises: " + ", ".join(f"{k} -> {v}" for k, v in profile.raises.items()))
    return "\n".join(lines)
