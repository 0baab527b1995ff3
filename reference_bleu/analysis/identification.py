"""Which BLEU produced a number: the points of the convention space that print it on given files (spec IDENT).

A reported number ("27.3", "0.2731") fixes a scale and a number of decimals (IDENT-REPORTED).
The search (IDENT-SEARCH) tries, on the files, the named profiles first, then the one-axis and
two-axis neighbours of every profile family's default point, then three-axis neighbours over
the axes that moved the score, up to a budget of points; every point prints in the reported
form (its output axis is the number's). A point reproduces the number when it prints the same
digits (IDENT-MATCH). The matches are ranked by their distance from the nearest named profile
(IDENT-RANK), and those that print the same digits are grouped by their full value, with what
would separate them (IDENT-TIES).
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from reference_bleu.analysis.attribution import reported_value, value_text
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.conventions.options import Scale
from reference_bleu.conventions.profiles import PROFILES
from reference_bleu.conventions.registry import TEXT_FIELDS
from reference_bleu.conventions.space import Point, axes, make_point, named_points, neighbours
from reference_bleu.errors import BleuError, BleuOptionError

#: Axes the search leaves at the base point's value: the output is the reported number's, and the
#: arithmetic moves a score by less than 10^-5 relative (CONV-ARITH), below any printed digit a
#: paper reports; N and the weights of the paper (axes of their own) are kept too.
FIXED_AXES = ("scale", "arithmetic")
#: Points tried at most, unless told (IDENT-SEARCH).
DEFAULT_BUDGET = 2000
#: Relative slack of the screening (ATTR-COST): binary32 arithmetic moves a score by up to ~1e-6.
SCREEN_SLACK = Fraction(1, 10**5)
#: The text axes (each a text field), counted anew for each value: tried last in combinations.
TEXT_AXES = TEXT_FIELDS
_NUMBER = re.compile(r"^\d+(\.\d+)?$")


@dataclass(frozen=True)
class Reported:
    """IDENT-REPORTED. A reported number: its text, its value, its scale and its decimals."""

    text: str
    value: Fraction
    scale: str
    digits: int


def parse_reported(text: str, scale: str | None = None) -> Reported:
    """IDENT-REPORTED. ``27.3`` is percent with 1 decimal, ``0.2731`` unit with 4; ``scale`` overrides.

    A number above 1 is a percentage; 1 or below is read on [0, 1] unless ``scale="percent"``.

    >>> parse_reported("27.3")
    Reported(text='27.3', value=Fraction(273, 10), scale='percent', digits=1)
    >>> parse_reported("0.2731").scale, parse_reported("0.2731").digits
    ('unit', 4)
    """
    clean = text.strip()
    if not _NUMBER.match(clean):
        raise BleuOptionError(
            "IDENT-REPORTED", f"a reported score is digits with a decimal point, not {text!r}"
        )
    value = Fraction(Decimal(clean))
    digits = len(clean.partition(".")[2])
    inferred = scale or ("percent" if value > 1 else "unit")
    if inferred not in ("percent", "unit"):
        raise BleuOptionError("IDENT-REPORTED", f"scale must be percent or unit, not {scale!r}")
    if inferred == "unit" and value > 1:
        raise BleuOptionError("IDENT-REPORTED", f"{text} is above 1: not a score on [0, 1]")
    if digits > 20:
        raise BleuOptionError("IDENT-REPORTED", f"{text} has more than 20 decimals")
    return Reported(clean, value, inferred, digits)


@dataclass(frozen=True)
class Match:
    """A point that prints the reported numbers: where it was found, how far from a named profile."""

    point: Point
    nearest: str
    changes: tuple[str, ...]
    native: bool
    values: tuple[Fraction, ...]
    tier: str
    probes: tuple[str, ...] = ()

    @property
    def distance(self) -> int:
        """Axes changed from the nearest named profile (IDENT-RANK)."""
        return len(self.changes)

    @property
    def label(self) -> str:
        """The nearest named profile, with the changed axes in brackets."""
        return self.nearest + (f" with {', '.join(self.changes)}" if self.changes else "")


@dataclass(frozen=True)
class Identification:
    """IDENT. The matches, ranked, grouped by full value, and what the search did."""

    reported: tuple[Reported, ...]
    systems: tuple[str, ...]
    matches: tuple[Match, ...]
    tried: dict[str, int]
    refused: int
    cpu_seconds: float
    countings: int
    notes: tuple[str, ...]

    def classes(self) -> list[list[Match]]:
        """IDENT-TIES. The matches grouped by their full values on the reported systems, in rank order."""
        groups: dict[tuple[Fraction, ...], list[Match]] = {}
        for match in self.matches:
            groups.setdefault(match.values, []).append(match)
        return list(groups.values())


def _output(point: Point, reported: Reported) -> Point:
    scale: Scale = "percent" if reported.scale == "percent" else "unit"
    options = replace(point.options, scale=scale, round_digits=reported.digits)
    return Point(point.text, options, point.name)


def _native(point: Point, reported: Reported) -> bool:
    """Whether the named point prints in the reported form itself (its scale and decimals, or every digit)."""
    o = point.options
    return o.scale == reported.scale and (o.round_digits == reported.digits or o.round_digits is None)


def _searched_axes() -> tuple[str, ...]:
    return tuple(a for a in axes() if a not in FIXED_AXES)


def _candidates(corpus: CountedCorpus, moved: set[str]) -> Iterator[tuple[str, Point | None]]:
    """IDENT-SEARCH. The points to try, tier by tier: named, one-axis neighbours, then two- and
    three-axis neighbours over the axes whose one-axis change moved the score; ``None`` for a
    point the options refuse. One-axis neighbours whose text is already counted come first; the
    text axes come last in the combinations.

    Neighbours are those of the family defaults that score a test set as a whole (micro), with the
    aggregation kept: a sentence-level point costs one evaluation per segment, so sentence-level
    tools are tried as named points only.
    """
    named = named_points()
    for point in sorted(named, key=lambda p: p.text not in corpus.counted_texts()):
        yield "named", point
    defaults = [p for p in named if p.name in PROFILES and p.options.aggregation == "micro"]
    searched = tuple(a for a in _searched_axes() if a != "aggregation")
    known = corpus.counted_texts()
    near = [
        _point(values, base.name)
        for base in defaults
        for axis in searched
        for values in neighbours(base, (axis,))
    ]
    near.sort(key=lambda p: p is not None and p.text not in known)
    for candidate in near:
        yield "1-axis", candidate
    text_last = sorted((a for a in searched if a in moved), key=lambda a: a in TEXT_AXES)
    for size in (2, 3):
        for axis_set in itertools.combinations(text_last, size):
            for base in defaults:
                for values in neighbours(base, axis_set):
                    yield f"{size}-axis", _point(values, base.name)


def _point(values: dict[str, Any], name: str) -> Point | None:
    try:
        return make_point(values, name)
    except BleuError:
        return None


def identify(
    corpus: CountedCorpus,
    reported: Sequence[Reported],
    *,
    budget: int = DEFAULT_BUDGET,
) -> Identification:
    """IDENT. The points that print ``reported[k]`` on system k of ``corpus``, for every k given.

    Systems beyond the reported ones are probes: what each match prints on them is listed, to
    separate matches that tie (IDENT-TIES). Tries at most ``budget`` distinct points.
    """
    if not reported or len(reported) > len(corpus.names):
        raise BleuOptionError("IDENT-REPORTED", "give one reported number for each of the first systems")
    if budget < 1:
        raise BleuOptionError("IDENT-SEARCH", f"the budget must be at least 1 point, not {budget}")
    started = time.process_time()
    named = {p.key: p for p in named_points()}
    first = reported[0]
    slack = first.value * SCREEN_SLACK + Fraction(1, 2 * 10**first.digits)
    seen: set[Any] = set()
    tried: dict[str, int] = {}
    refused = 0
    moved: set[str] = set()
    base_values: dict[str, Fraction] = {}
    found: list[tuple[Point, str]] = []
    notes: list[str] = []
    for tier, candidate in _candidates(corpus, moved):
        if sum(tried.values()) >= budget:
            break
        if candidate is None:
            refused += 1
            continue
        point = _output(candidate, first)
        if point.key in seen:
            continue
        seen.add(point.key)
        tried[tier] = tried.get(tier, 0) + 1
        try:
            screened = corpus.screen(point)[0]
        except BleuError:
            refused += 1
            continue
        value = Fraction(screened) * (100 if first.scale == "percent" else 1)
        if tier == "named" and candidate.name in PROFILES:
            base_values[candidate.name] = value
        elif tier == "1-axis" and value != base_values.get(candidate.name, value):
            moved.update(_changed(candidate, named[_family_key(candidate.name)]))
        if abs(value - first.value) <= slack and _prints(corpus, point, reported):
            found.append((point, tier))
    if sum(tried.values()) >= budget:
        notes.append(f"the search stopped at its budget of {budget} points (--max-points raises it)")
    matches = [_match(corpus, point, tier, reported, list(named.values())) for point, tier in found]
    matches.sort(key=lambda m: (m.distance, not m.native, m.nearest, m.changes))
    return Identification(
        tuple(reported),
        tuple(corpus.names),
        tuple(matches),
        tried,
        refused,
        time.process_time() - started,
        corpus.countings,
        tuple(notes),
    )


def _family_key(name: str) -> tuple[Any, ...]:
    return next(p.key for p in named_points() if p.name == name)


def _changed(point: Point, base: Point) -> list[str]:
    mine, theirs = point.axes(), base.axes()
    return [a for a in mine if a not in FIXED_AXES and mine[a] != theirs[a]]


def _prints(corpus: CountedCorpus, point: Point, reported: Sequence[Reported]) -> bool:
    """IDENT-MATCH. Whether the point prints every reported number on its system (in its form)."""
    try:
        results = corpus.results(point)
    except BleuError:
        return False
    for k, number in enumerate(reported):
        mine = results[k] if k == 0 else _in_form(corpus, point, number)[k]
        if mine.reported_text != number.text:
            return False
    return True


def _in_form(corpus: CountedCorpus, point: Point, number: Reported) -> list[Any]:
    return corpus.results(_output(point, number))


def _match(
    corpus: CountedCorpus, point: Point, tier: str, reported: Sequence[Reported], named: list[Point]
) -> Match:
    """IDENT-RANK. The match's nearest named profile, its full values and what it prints on the probes."""
    nearest = min(named, key=lambda p: (len(_changed(point, p)), p.name not in PROFILES))
    mine, theirs = point.axes(), nearest.axes()
    changes = tuple(f"{a}={mine[a]}" for a in mine if a not in FIXED_AXES and mine[a] != theirs[a])
    full = Point(point.text, replace(point.options, round_digits=None), point.name)
    results = corpus.results(full)
    values = tuple(reported_value(results[k], reported[0].scale) for k in range(len(reported)))
    probes = tuple(r.reported_text for r in corpus.results(point)[len(reported) :])
    return Match(point, nearest.name, changes, _native(nearest, reported[0]), values, tier, probes)


# --- printing -------------------------------------------------------------------------------------


def ties(result: Identification) -> list[str]:
    """IDENT-TIES. Plain sentences: which matches print the same number, and what would separate them."""
    classes = result.classes()
    out: list[str] = []
    if not classes:
        return ["no point tried prints this number"]
    if len(result.matches) == 1:
        return ["one point prints this number"]
    digits = result.reported[0].digits + 6
    if len(classes) > 1:
        shown = "; ".join(f"{c[0].label}: {value_text(c[0].values[0], digits)}" for c in classes)
        out.append(
            f"{len(result.matches)} points print {result.reported[0].text}; their full values fall into "
            f"{len(classes)} groups, which more printed digits would separate ({shown})"
        )
    for group in classes:
        if len(group) < 2:
            continue
        names = ", ".join(m.label for m in group)
        probes = {m.probes for m in group}
        if len(probes) > 1:
            shown = "; ".join(f"{m.label}: {', '.join(m.probes)}" for m in group)
            out.append(f"{names} give the same value here; the other systems given separate them ({shown})")
        else:
            differing = sorted(
                {a for m in group for a in m.point.axes() if m.point.axes()[a] != group[0].point.axes()[a]}
            )
            extra = "" if not group[0].probes else " (the other systems given do not: the same digits there)"
            out.append(
                f"{names} give the very same value on these files{extra}: only another system's number "
                f"or a second test set on which {', '.join(differing) or 'their axes'} matter separates them"
            )
    return out


def to_json(result: Identification) -> dict[str, Any]:
    """IDENT-OUTPUT. The identification as one JSON object."""
    return {
        "reported": [
            {"text": r.text, "scale": r.scale, "digits": r.digits, "system": s}
            for r, s in zip(result.reported, result.systems, strict=False)
        ],
        "tried": result.tried,
        "refused": result.refused,
        "countings": result.countings,
        "cpu_seconds": round(result.cpu_seconds, 3),
        "matches": [
            {
                "rank": rank,
                "point": m.label,
                "nearest_profile": m.nearest,
                "changes": list(m.changes),
                "distance": m.distance,
                "native_form": m.native,
                "found_in": m.tier,
                "values": [{"exact": str(v), "decimal": value_text(v, 12)} for v in m.values],
                "probes": dict(zip(result.systems[len(result.reported) :], m.probes, strict=True)),
                "axes": m.point.axes(),
            }
            for rank, m in _ranked(result)
        ],
        "ties": ties(result),
        "notes": list(result.notes),
    }


def _ranked(result: Identification) -> list[tuple[int, Match]]:
    out, rank, previous = [], 0, None
    for k, m in enumerate(result.matches, 1):
        key = (m.distance, m.native)
        if key != previous:
            rank, previous = k, key
        out.append((rank, m))
    return out


def render(result: Identification, fmt: str = "text") -> str:
    """IDENT-OUTPUT. The identification as text, Markdown (``markdown``) or JSON (``json``)."""
    if fmt == "json":
        return json.dumps(to_json(result), indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    first = result.reported[0]
    form = f"{first.scale}, {first.digits} decimal{'s' if first.digits != 1 else ''}"
    tried = sum(result.tried.values())
    tiers = ", ".join(f"{k} {v}" for k, v in result.tried.items())
    lines = [
        f"{'## ' if md else ''}{', '.join(r.text for r in result.reported)} ({form}) on "
        f"{', '.join(result.systems[: len(result.reported)])}",
        "",
        f"{len(result.matches)} of {tried} points tried print it ({tiers}; {result.refused} refused by the "
        f"reference; {result.countings} text conventions counted; {result.cpu_seconds:.1f} s CPU)",
        "",
    ]
    rows = [
        [
            str(rank),
            str(m.distance),
            "yes" if m.native else "",
            m.label,
            value_text(m.values[0], first.digits + 4),
        ]
        for rank, m in _ranked(result)
    ]
    head = ["rank", "distance", "native form", "point", "full value"]
    if md:
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(r[j]) for r in [head, *rows]) for j in range(len(head))]
        lines += ["  ".join(r[j].ljust(widths[j]) for j in range(len(head))).rstrip() for r in [head, *rows]]
    lines.append("")
    lines.append(f"{'### ' if md else ''}conventions of each match")
    for rank, m in _ranked(result):
        conventions = "; ".join(f"{a}={v}" for a, v in m.point.axes().items())
        lines.append(f"{'- ' if md else ''}{rank}. {m.label}: {conventions}")
    lines.append("")
    lines += [f"{'- ' if md else ''}{sentence}" for sentence in ties(result)]
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)
