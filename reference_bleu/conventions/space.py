"""Points of the convention space and their axes, as the registry declares them (spec ATTR-AXES).

A point is the text conventions (``tokenize_line``'s keywords) plus validated options
(:class:`reference_bleu.conventions.options.BleuOptions`): every field that decides a number. The fields,
their values and the axes they make up are :mod:`reference_bleu.conventions.registry`'s: an axis is a field
and the fields that refine it (``zero_value`` refines ``zero_precision``). The values an axis
takes are the ones the named profiles take and the ones the registry declares.

This module is where the attribution and the identification (spec chapter 15) read the space.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from reference_bleu.conventions.options import MAX_REMEMBERED, BleuOptions, make_options, options_key
from reference_bleu.conventions.profiles import PROFILES, Profile, profile_options, resolve
from reference_bleu.conventions.registry import (
    AXES,
    BY_NAME,
    OPTION_FIELDS,
    PAPER_TEXT,
    TEXT_FIELDS,
    axis_of,
    shown_values,
)
from reference_bleu.errors import BleuError

#: Every field of a point: the text fields, then the options' fields (API-OPTIONS).
FIELDS = (*TEXT_FIELDS, *OPTION_FIELDS)

Fields = dict[str, Any]


@dataclass(frozen=True)
class Point:
    """A point of CONV-SPACE: the text conventions and the validated options, every field that decides
    a number. The one record of a point: the API, the command line, the runner, the attribution and
    the integrations all score a Point (:func:`reference_bleu.scoring.score.score`).

    ``name`` says where it came from (a profile's name, a label of a report); ``profile`` is the named
    profile it was resolved from (``None``: none), ``overridden`` the options given beside that
    profile which changed its value: a result at the point is then not the tool's (CONV-PROFILES).
    """

    text: tuple[tuple[str, str], ...]
    options: BleuOptions
    name: str = ""
    profile: str | None = None
    overridden: tuple[str, ...] = ()

    @classmethod
    def of(cls, options: BleuOptions) -> Point:
        """The point of ``options`` with the paper's text conventions (a caller that gives tokens)."""
        return cls(PAPER_TEXT_FIELDS, options)

    @property
    def text_conventions(self) -> dict[str, str]:
        """The text conventions, as ``tokenize_line`` keywords."""
        return dict(self.text)

    @property
    def fields(self) -> Fields:
        """Every field's value: the text fields, then the options' fields."""
        return {**dict(self.text), **{name: getattr(self.options, name) for name in OPTION_FIELDS}}

    @property
    def key(self) -> tuple[Any, ...]:
        """What identifies the point (its name aside)."""
        return (self.text, self.options)

    def axes(self) -> dict[str, str]:
        """The point's value on every axis of the registry, as ``reference-bleu profiles`` shows it."""
        return shown_values(self.fields)

    def named(self, name: str) -> Point:
        """The same point under another name."""
        return replace(self, name=name)


#: The paper's text conventions as a point holds them.
PAPER_TEXT_FIELDS: tuple[tuple[str, str], ...] = tuple((name, PAPER_TEXT[name]) for name in TEXT_FIELDS)


def resolve_point(
    profile: str | Profile | None = None,
    options: Mapping[str, Any] | None = None,
    text: Mapping[str, str] | None = None,
) -> Point:
    """CONV-PROFILES. The point a profile names, with the options and text conventions given beside it.

    The profile's options with ``options`` applied (those that change its value are the point's
    ``overridden``) and validated (a BleuOptionError names the refused one); its text conventions
    with ``text`` applied, checked where text is tokenized. Without a profile, the paper's.

    The point of each distinct profile name, options and text given is remembered (a Point is
    immutable): a caller scoring one row at a time resolves its point once.

    >>> point = resolve_point("sacrebleu", {"smoothing": "floor"}, {"lowercase": "unicode"})
    >>> point.profile, point.overridden, point.options.smoothing, point.text_conventions["tokenize"]
    ('sacrebleu', ('smoothing',), 'floor', '13a')
    """
    key = _point_key(profile, options, text)
    remembered = None if key is None else _REMEMBERED.get(key)
    if remembered is not None:
        return remembered
    point = _resolved_point(profile, options, text)
    if key is not None:
        if len(_REMEMBERED) >= MAX_REMEMBERED:
            _REMEMBERED.clear()
        _REMEMBERED[key] = point
    return point


_REMEMBERED: dict[tuple[object, ...], Point] = {}


def _point_key(
    profile: str | Profile | None, options: Mapping[str, Any] | None, text: Mapping[str, str] | None
) -> tuple[object, ...] | None:
    """What :func:`resolve_point` remembers a point by; ``None`` when it cannot (a Profile object given,
    options :func:`options_key` cannot remember, text that is not strings)."""
    given = options_key(options or {})
    texts = tuple((text or {}).items())
    if given is None or not (profile is None or isinstance(profile, str)):
        return None
    if not all(type(name) is str and type(value) is str for name, value in texts):
        return None
    return (profile, given, texts)


def _resolved_point(
    profile: str | Profile | None, options: Mapping[str, Any] | None, text: Mapping[str, str] | None
) -> Point:
    """:func:`resolve_point`'s work, every time."""
    chosen = resolve(profile) if isinstance(profile, str) else profile
    given = dict(options or {})
    overridden: tuple[str, ...] = ()
    if chosen is None:
        merged, base = given, PAPER_TEXT
    else:
        merged, overridden = profile_options(chosen, given)
        base = chosen.text
    conventions = {**base, **(text or {})}
    fields = tuple((name, conventions[name]) for name in TEXT_FIELDS)
    name = chosen.name if chosen is not None else ""
    return Point(fields, make_options(**merged), name, chosen.name if chosen else None, overridden)


def make_point(values: Mapping[str, Any], name: str = "") -> Point:
    """ATTR-AXES. The point with these field values (missing ones the paper's); a BleuError if refused."""
    unknown = sorted(set(values) - set(FIELDS))
    if unknown:
        raise BleuError("ATTR-AXES", f"unknown field(s) {', '.join(unknown)}")
    text = tuple((k, str(values.get(k, PAPER_TEXT[k]))) for k in TEXT_FIELDS)
    for key, value in text:
        if value not in BY_NAME[key].values:
            raise BleuError(
                "ATTR-AXES", f"{key} must be one of {', '.join(BY_NAME[key].values)}, not {value!r}"
            )
    options = make_options(**{k: v for k, v in values.items() if k in OPTION_FIELDS})
    return Point(text, options, name)


def profile_point(name: str) -> Point:
    """The point of the profile ``name`` (spec CONV-PROFILES), named as the profile resolves."""
    profile = resolve(name)
    point = make_point({**profile.text, **profile.options}, profile.name)
    return replace(point, profile=profile.name)


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


def field_axes() -> dict[str, tuple[str, ...]]:
    """ATTR-AXES. The axis each field belongs to (the registry's), as a one-axis tuple."""
    return {name: (axis_of(name).name,) for name in FIELDS}


def axes() -> tuple[str, ...]:
    """ATTR-AXES. Every axis of the registry, in its order."""
    return tuple(AXES)


def axis_fields(axis: str) -> tuple[str, ...]:
    """The fields that make up ``axis``."""
    return AXES[axis].fields


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

    Those of the named profiles, then the registry's (``Axis.assignments``: each value of its
    field with the refinements at the paper's, then each refining flag set); in that order,
    without repeats.
    """
    values: dict[str, dict[tuple[tuple[str, Any], ...], None]] = {axis: {} for axis in axes()}
    for axis in axes():
        names = axis_fields(axis)
        for point in named_points():
            mine = point.fields
            values[axis][tuple((n, mine[n]) for n in names)] = None
        for assignment in AXES[axis].assignments():
            values[axis][tuple((n, assignment[n]) for n in names)] = None
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
