"""Points of the convention space and their axes, derived from the options and the profiles (spec ATTR-AXES).

A point is the text conventions (``tokenize_line``'s keywords) plus validated options
(:class:`reference_bleu.options.BleuOptions`): every field that decides a number. The axes are
the ones CONV-SPACE names, as :func:`reference_bleu.profiles.axis_values` computes them (the
level left out: it is the aggregation's name, not an input of the computation). Which fields
make up an axis is not written down here but found by probing: a field belongs to the axes
whose value changes when that field alone changes, from the paper's point or from a named
profile's. A field that no axis shows is an axis of its own. The values an axis takes are
the ones the named profiles take and the ones the options declare (their ``Literal`` types,
the smoothing methods, the tokenizers).

This module is where the attribution and the identification (spec chapter 15) read the
space; the single convention registry of a later redesign should take its place.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, get_args, get_type_hints

from reference_bleu.errors import BleuError
from reference_bleu.options import OPTION_NAMES, BleuOptions, make_options
from reference_bleu.profiles import PROFILES, Profile, axis_values, resolve
from reference_bleu.smoothing import SMOOTHING_METHODS
from reference_bleu.tokenizers import (
    CASE_FOLDINGS,
    CASE_ORDERS,
    MECAB_TOKENIZERS,
    PAPER_TEXT,
    SGML_TOKENIZERS,
    SPLIT_RULES,
    TOKENIZERS,
)

#: The text fields of a point, as ``tokenize_line`` keywords (TOK-PIPELINE).
TEXT_FIELDS = tuple(PAPER_TEXT)
#: Every field of a point: the text fields, then the options' fields (API-OPTIONS).
FIELDS = (*TEXT_FIELDS, *OPTION_NAMES)
#: The axis of CONV-SPACE left out: a profile's level is named by its aggregation, which is the axis.
DESCRIPTIVE_AXES = ("level",)
#: Declared values of the text fields (spec TOK-PIPELINE, TOK-CASE, TOK-SPLIT-RULE, TOK-CASE-ORDER).
_TEXT_VALUES: dict[str, tuple[str, ...]] = {
    "tokenize": (*TOKENIZERS, *SGML_TOKENIZERS, *MECAB_TOKENIZERS),
    "lowercase": CASE_FOLDINGS,
    "split": SPLIT_RULES,
    "case_order": CASE_ORDERS,
}

Fields = dict[str, Any]


@dataclass(frozen=True)
class Point:
    """A point of CONV-SPACE: text conventions and validated options; ``name`` says where it came from."""

    text: tuple[tuple[str, str], ...]
    options: BleuOptions
    name: str = ""

    @property
    def fields(self) -> Fields:
        """Every field's value: the text fields, then the options' fields."""
        return {**dict(self.text), **{name: getattr(self.options, name) for name in OPTION_NAMES}}

    @property
    def key(self) -> tuple[Any, ...]:
        """What identifies the point (its name aside)."""
        return (self.text, self.options)

    def axes(self) -> dict[str, str]:
        """The point's value on every axis of :func:`axes`, as ``reference-bleu profiles`` shows it."""
        shown = axis_values(_as_profile(self))
        values = {axis: shown[axis] for axis in shown if axis not in DESCRIPTIVE_AXES}
        for field in own_axes():
            values[field] = _shown(self.fields[field])
        return values

    def named(self, name: str) -> Point:
        """The same point under another name."""
        return Point(self.text, self.options, name)


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _as_profile(point: Point) -> Profile:
    options = {name: getattr(point.options, name) for name in OPTION_NAMES}
    text = dict(point.text)
    return Profile(
        point.name or "point",
        "",
        "",
        "",
        options,
        (),
        tokenize=text["tokenize"],
        lowercase=text["lowercase"],
        split=text["split"],
        case_order=text["case_order"],
    )


def make_point(values: Mapping[str, Any], name: str = "") -> Point:
    """ATTR-AXES. The point with these field values (missing ones the paper's); a BleuError if refused."""
    unknown = sorted(set(values) - set(FIELDS))
    if unknown:
        raise BleuError("ATTR-AXES", f"unknown field(s) {', '.join(unknown)}")
    text = tuple((k, str(values.get(k, PAPER_TEXT[k]))) for k in TEXT_FIELDS)
    for key, value in text:
        if value not in _TEXT_VALUES[key]:
            raise BleuError(
                "ATTR-AXES", f"{key} must be one of {', '.join(_TEXT_VALUES[key])}, not {value!r}"
            )
    options = make_options(**{k: v for k, v in values.items() if k in OPTION_NAMES})
    return Point(text, options, name)


def profile_point(name: str) -> Point:
    """The point of the profile ``name`` (spec CONV-PROFILES), named as the profile resolves."""
    profile = resolve(name)
    return make_point({**profile.text, **profile.options}, profile.name)


@cache
def named_points() -> tuple[Point, ...]:
    """Every profile family at its defaults, then each with one parameter changed (CONV-PROFILES).

    Numeric parameters (a smoothing's value) and ``width`` (how many decimals are printed, which
    an identification reads from the number itself) are left at their defaults.
    """
    points: dict[tuple[Any, ...], Point] = {}
    names = list(PROFILES)
    for family in PROFILES.values():
        for parameter, allowed in family.parameters.items():
            if parameter != "width":
                names += [
                    f"{family.name}[{parameter}={v}]" for v in allowed if v != family.defaults[parameter]
                ]
    for name in names:
        point = profile_point(name)
        points.setdefault(point.key, point)
    return tuple(points.values())


@cache
def _paper_axes() -> dict[str, str]:
    return axis_values(_as_profile(profile_point("paper")))


def _changed_axes(before: Fields, after: Fields) -> frozenset[str] | None:
    """The CONV-SPACE axes whose value differs between two field assignments; None if either is refused."""
    try:
        a = axis_values(_as_profile(make_point(before)))
        b = axis_values(_as_profile(make_point(after)))
    except BleuError:
        return None
    return frozenset(k for k in a if a[k] != b[k] and k not in DESCRIPTIVE_AXES)


def _declared_values(field: str) -> tuple[Any, ...]:
    """The values the modules declare for a field: a Literal's, the smoothing methods, the tokenizers."""
    if field in _TEXT_VALUES:
        return _TEXT_VALUES[field]
    if field == "smoothing":
        return tuple(SMOOTHING_METHODS)
    hint = get_type_hints(BleuOptions)[field]
    args = get_args(hint)
    if hint is bool:
        return (False, True)
    return args if args and all(isinstance(a, str) for a in args) else ()


@cache
def field_axes() -> dict[str, tuple[str, ...]]:
    """ATTR-AXES. The axes each field belongs to, found by changing that field alone.

    From the paper's point to each declared value, and, for each named profile, from the
    paper to the profile's value and from the profile back to the paper's value. A field that
    changes no axis (N, the weights) is an axis of its own, named by the field.
    """
    paper = profile_point("paper").fields
    found: dict[str, set[str]] = {name: set() for name in FIELDS}
    for name in FIELDS:
        for value in _declared_values(name):
            found[name] |= _changed_axes(paper, {**paper, name: value}) or frozenset()
    for point in named_points():
        mine = point.fields
        for name in FIELDS:
            if mine[name] != paper[name]:
                found[name] |= _changed_axes(paper, {**paper, name: mine[name]}) or frozenset()
                found[name] |= _changed_axes(mine, {**mine, name: paper[name]}) or frozenset()
    order = list(axes_of_space())
    return {name: tuple(sorted(axes, key=order.index)) if axes else (name,) for name, axes in found.items()}


def axes_of_space() -> tuple[str, ...]:
    """The axes of CONV-SPACE in the order ``reference-bleu profiles`` lists them (the pipeline's order)."""
    return tuple(axis for axis in _paper_axes() if axis not in DESCRIPTIVE_AXES)


@cache
def own_axes() -> tuple[str, ...]:
    """Fields that no CONV-SPACE axis shows, each an axis of its own (N, the weights, ...)."""
    space = axes_of_space()
    return tuple(name for name, owned in field_axes().items() if owned == (name,) and name not in space)


def axes() -> tuple[str, ...]:
    """ATTR-AXES. Every axis: CONV-SPACE's, in its order, then the fields that are axes of their own."""
    return (*axes_of_space(), *own_axes())


def axis_fields(axis: str) -> tuple[str, ...]:
    """The fields that make up ``axis``."""
    return tuple(name for name, owned in field_axes().items() if axis in owned)


def differing_fields(a: Point, b: Point) -> list[str]:
    """The fields on which two points differ, in FIELDS' order."""
    fa, fb = a.fields, b.fields
    return [name for name in FIELDS if fa[name] != fb[name]]


def mixed(a: Point, b: Point, taken: Iterator[str] | tuple[str, ...] | frozenset[str]) -> Fields:
    """The fields of ``a`` with the fields ``taken`` from ``b``."""
    values, theirs = a.fields, b.fields
    for name in taken:
        values[name] = theirs[name]
    return values


@cache
def axis_values_declared() -> dict[str, tuple[tuple[tuple[str, Any], ...], ...]]:
    """IDENT-SEARCH. The values each axis takes, as assignments of its fields.

    Those of the named profiles, then each declared value of each of its fields with the
    axis's other fields at the paper's values; in that order, without repeats.
    """
    paper = profile_point("paper").fields
    values: dict[str, dict[tuple[tuple[str, Any], ...], None]] = {axis: {} for axis in axes()}
    for axis in axes():
        names = axis_fields(axis)
        for point in named_points():
            mine = point.fields
            values[axis][tuple((n, mine[n]) for n in names)] = None
        for name in names:
            for value in _declared_values(name):
                values[axis][tuple((n, value if n == name else paper[n]) for n in names)] = None
    return {axis: tuple(assignments) for axis, assignments in values.items()}


def neighbours(base: Point, axis_set: tuple[str, ...]) -> Iterator[Fields]:
    """IDENT-SEARCH. Every assignment that changes each axis of ``axis_set`` away from ``base``'s value."""
    mine = base.fields
    choices = []
    for axis in axis_set:
        own = tuple((n, mine[n]) for n in axis_fields(axis))
        choices.append([v for v in axis_values_declared()[axis] if v != own])
    for combination in itertools.product(*choices):
        values = dict(mine)
        for assignment in combination:
            values.update(assignment)
        yield values
