"""Which BLEU produced a number: the points of the convention space that print it on given files (spec IDENT).

A reported number ("27.3", "0.2731", "28.301225088283296") fixes a scale and a number of
decimals (IDENT-REPORTED). The search (IDENT-SEARCH) tries, on the files, the named profiles
first, then the one-axis and two-axis neighbours of every profile family's default point, then
three-axis neighbours over the axes that moved the score, up to a budget of points; every point
prints in the reported form (its output axis is the number's). Each point is screened by a
binary64 estimate from the counted statistics, and scored exactly only where the estimate
leaves the printed digits open. A point reproduces the number when it prints the same digits,
in its tool's own arithmetic (IDENT-MATCH); a number printed whole (15 or more significant
digits) is also reached, as a near match, by the points whose double is within the arithmetic's
error of it. The matches are ranked by their distance from the nearest named profile
(IDENT-RANK), equal values collapse into one row with every name that prints them, and the
ties say what would separate them (IDENT-TIES); the first line names the most likely answer and
how sure it is (IDENT-OUTPUT).
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import re
import textwrap
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Any

from reference_bleu.analysis.attribution import reported_value, value_text
from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.analysis.significance import sacrebleu_point
from reference_bleu.conventions.options import BleuOptions, Scale
from reference_bleu.conventions.profiles import PROFILES
from reference_bleu.conventions.registry import TEXT_FIELDS
from reference_bleu.conventions.space import Point, axes, make_point, named_points, neighbours
from reference_bleu.errors import BleuError, BleuOptionError
from reference_bleu.scoring.evaluation import conventional_total
from reference_bleu.scoring.floating import sacrebleu_compute_bleu, sacrebleu_row
from reference_bleu.scoring.score import printed

#: The output axis: the reported number's own (its scale and decimals), never searched or counted
#: as a change. The arithmetic is the base point's (it moves a score by less than 10^-5 relative,
#: CONV-ARITH): not searched, but a change from the nearest profile when it differs.
OUTPUT_AXIS = "scale"
FIXED_AXES = (OUTPUT_AXIS, "arithmetic")
#: Points screened at most, unless told (IDENT-SEARCH).
DEFAULT_BUDGET = 2000
#: Relative slack of the screen (ATTR-COST) around the number, by the point's arithmetic: the
#: estimate is binary64; binary32 moves a score by up to ~1e-6, a tool's order of operations by ~1e-13.
SCREEN_SLACK = {"binary32": Fraction(1, 10**5), "binary32-precisions": Fraction(1, 10**5)}
DOUBLE_SLACK = Fraction(1, 10**11)
#: Significant digits from which a number is a double printed whole (``repr`` gives 15 to 17).
FULL_DIGITS = 15
#: How far a near match's double may lie from a number printed whole, relative (CONV-ARITH: a tool
#: that orders its operations otherwise agrees with the canonical procedure to 1e-13).
NEAR = Fraction(1, 10**13)
#: The text axes (each a text field), counted anew for each value: tried last in combinations.
TEXT_AXES = TEXT_FIELDS
#: Output width of the text report (IDENT-OUTPUT), and the rows shown without ``verbose``.
WIDTH = 100
ROWS = 8
#: Rows whose ties are explained without ``verbose``.
TIES = 3
_NUMBER = re.compile(r"^\d+(\.\d+)?$")


@dataclass(frozen=True)
class Reported:
    """IDENT-REPORTED. A reported number: its text, its value, its scale and its decimals."""

    text: str
    value: Fraction
    scale: str
    digits: int

    @property
    def significant(self) -> int:
        """Its significant digits (leading zeros aside)."""
        return len(self.text.replace(".", "").lstrip("0")) or 1

    @property
    def whole(self) -> bool:
        """Whether it is a double printed whole (FULL_DIGITS significant digits or more)."""
        return self.significant >= FULL_DIGITS


def parse_reported(text: str, scale: str | None = None) -> Reported:
    """IDENT-REPORTED. ``27.3`` is percent with 1 decimal, ``0.2731`` unit with 4; ``scale`` overrides.

    A number above 1 is a percentage; 1 or below is read on [0, 1] unless ``scale="percent"``.

    >>> parse_reported("27.3")
    Reported(text='27.3', value=Fraction(273, 10), scale='percent', digits=1)
    >>> parse_reported("0.2731").scale, parse_reported("0.2731").digits
    ('unit', 4)
    >>> parse_reported("28.301225088283296").whole
    True
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
    """A point that prints the reported numbers: where it was found, how far from a named profile.

    ``values`` are its full values on the reported systems (what it computes, unrounded, on the
    number's scale); ``ulps`` is 0 when it prints every digit, else how many units in the last place
    of a double its value lies from a number printed whole (a near match, IDENT-MATCH).
    """

    point: Point
    nearest: str
    changes: tuple[str, ...]
    native: bool
    values: tuple[Fraction, ...]
    tier: str
    probes: tuple[str, ...] = ()
    ulps: int = 0

    @property
    def distance(self) -> int:
        """Axes changed from the nearest named profile (IDENT-RANK)."""
        return len(self.changes)

    @property
    def exact(self) -> bool:
        """Whether it prints every digit of the numbers (not a near match)."""
        return self.ulps == 0

    @property
    def label(self) -> str:
        """The nearest named profile, with the changed axes after ``with``."""
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
    """Whether the named point prints in the reported form itself: its scale, and its decimals or every
    digit (a number printed whole is what any binary64 tool's function returns)."""
    o = point.options
    whole = o.round_digits is None or (reported.whole and o.arithmetic != "exact")
    return o.scale == reported.scale and (o.round_digits == reported.digits or whole)


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
    combined = [a for a in searched if a in moved]
    for size in (2, 3):
        axis_sets = sorted(
            itertools.combinations(combined, size), key=lambda s: sum(a in TEXT_AXES for a in s)
        )
        for axis_set in axis_sets:
            for base in defaults:
                for values in neighbours(base, axis_set):
                    yield f"{size}-axis", _point(values, base.name)


def _point(values: dict[str, Any], name: str) -> Point | None:
    try:
        return make_point(values, name)
    except BleuError:
        return None


def _window(point: Point, number: Reported) -> Fraction:
    """How far a screened estimate may lie from the number and the point still print it: half a
    printed unit, plus the estimate's error for the point's arithmetic (ATTR-COST)."""
    slack = SCREEN_SLACK.get(point.options.arithmetic, DOUBLE_SLACK)
    return number.value * slack + Fraction(1, 2 * 10**number.digits)


def identify(
    corpus: CountedCorpus,
    reported: Sequence[Reported],
    *,
    budget: int = DEFAULT_BUDGET,
) -> Identification:
    """IDENT. The points that print ``reported[k]`` on system k of ``corpus``, for every k given.

    Systems beyond the reported ones are probes: what each match prints on them is listed, to
    separate matches that tie (IDENT-TIES). Screens at most ``budget`` distinct points, each from
    the counted statistics in binary64 (ATTR-COST); only those whose estimate leaves the printed
    digits open are scored exactly.
    """
    if not reported or len(reported) > len(corpus.names):
        raise BleuOptionError("IDENT-REPORTED", "give one reported number for each of the first systems")
    if budget < 1:
        raise BleuOptionError("IDENT-SEARCH", f"the budget must be at least 1 point, not {budget}")
    with _collector_paused():
        return _identify(corpus, reported, budget)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: the search builds millions of tuples and strings (the
    tokens of each text convention, the statistics) and no cycle, and the collector's passes over
    them cost a fifth of the search (ATTR-COST). Restored as it was, whatever happens; the objects
    made meanwhile join the oldest generation at once (``gc.freeze`` then ``gc.unfreeze``), so the
    first pass after the search does not walk them all again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()
            gc.unfreeze()


def _identify(corpus: CountedCorpus, reported: Sequence[Reported], budget: int) -> Identification:
    """:func:`identify`'s search, its arguments checked."""
    started = time.process_time()
    first = reported[0]
    factor = 100 if first.scale == "percent" else 1
    seen: set[Any] = set()
    tried: dict[str, int] = {}
    refused = 0
    moved: set[str] = set()
    base_values: dict[str, float] = {}
    found: list[tuple[Point, str, int, list[float]]] = []
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
            estimates = corpus.screen(point)
        except BleuError:
            refused += 1
            continue
        estimate = estimates[0] * factor
        if tier == "named" and candidate.name in PROFILES:
            base_values[candidate.name] = estimate
        elif tier == "1-axis" and estimate != base_values.get(candidate.name, estimate):
            moved.update(_changed(candidate, _family(candidate.name)))
        if abs(Fraction(estimate) - first.value) <= _window(point, first):
            ulps = _prints(corpus, point, reported, estimates)
            if ulps is not None:
                found.append((point, tier, ulps, estimates))
    if sum(tried.values()) >= budget:
        notes.append(f"the search stopped at its budget of {budget} points (--max-points raises it)")
    matches = [_match(corpus, f, reported) for f in found]
    matches.sort(key=_rank_key)
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


def _rank_key(m: Match) -> tuple[Any, ...]:
    """IDENT-RANK: every digit before near, then the distance, the native form, the name."""
    return (not m.exact, m.distance, not m.native, m.ulps, m.nearest, m.changes)


@cache
def _named_axes() -> tuple[tuple[Point, dict[str, str]], ...]:
    return tuple((p, p.axes()) for p in named_points())


def _family(name: str) -> Point:
    return next(p for p in named_points() if p.name == name)


def _changed(point: Point, base: Point, mine: dict[str, str] | None = None) -> list[str]:
    mine, theirs = mine or point.axes(), base.axes()
    return [a for a in mine if a != OUTPUT_AXIS and mine[a] != theirs[a]]


#: Smoothings whose settling takes a logarithm (methods 4 and 7): the screen takes it at SCREEN_DIGITS,
#: the scoring pass at its working precision, so their estimate may differ from the point's double.
_LOGARITHMIC = ("chen-cherry-4", "chen-cherry-7", "nltk-4", "nltk-7")


def _replayed(options: BleuOptions) -> bool:
    """Whether the point's tool is replayed in its own arithmetic: a point sacrebleu computes, on its
    percent scale."""
    return options.scale == "percent" and options.aggregation == "micro" and sacrebleu_point(options)


def estimate_is_double(options: BleuOptions) -> bool:
    """ATTR-COST. Whether a point's screened estimate is its reported double itself: a point scored as
    a whole (micro) in binary64, whose smoothing takes no logarithm, settles and combines exactly as
    the scoring pass does (the same settling, CONV-ARITH's procedure); a replayed tool aside."""
    return (
        options.aggregation == "micro"
        and options.arithmetic == "binary64"
        and options.smoothing not in _LOGARITHMIC
        and not _replayed(options)
    )


def tool_values(corpus: CountedCorpus, point: Point, estimates: Sequence[float] | None = None) -> list[float]:
    """IDENT-MATCH. What the point's tool computes on each system, on the point's scale, as a double:
    sacrebleu's own arithmetic at a point sacrebleu computes (on its percent scale, as
    ``BLEU.corpus_score(...).score`` and ``score --profile sacrebleu -w`` give it); the screened
    ``estimates`` (on [0, 1]) where they are the point's double (:func:`estimate_is_double`); else the
    result's ``reported`` number. A BleuError where the point refuses these files."""
    options = point.options
    if _replayed(options):
        totals = [conventional_total(s, options) for s in corpus.scored(point.text, options)]
        return [sacrebleu_compute_bleu(sacrebleu_row(t, options.max_order), options).score for t in totals]
    if estimates is not None and estimate_is_double(options):
        factor = 100 if options.scale == "percent" else 1
        return [e * factor for e in estimates]
    return [r.reported for r in corpus.results(point)]


def _prints(
    corpus: CountedCorpus, point: Point, reported: Sequence[Reported], estimates: Sequence[float]
) -> int | None:
    """IDENT-MATCH. 0 when the point prints every reported number on its system (in its form); for
    numbers printed whole, the largest distance in ulps of a near match; ``None`` otherwise."""
    ulps = 0
    for k, number in enumerate(reported):
        try:
            value = tool_values(corpus, point if k == 0 else _output(point, number), estimates)[k]
        except BleuError:
            return None
        if f"{value:.{number.digits}f}" == number.text:
            continue
        if not number.whole or abs(Fraction(value) - number.value) > number.value * NEAR:
            return None
        ulps = max(ulps, _ulps(value, number))
    return ulps


def _ulps(value: float, number: Reported) -> int:
    """How many units in the last place of the number's double ``value`` lies from it (at least 1)."""
    target = float(number.text)
    return max(1, round(abs(value - target) / math.ulp(target)))


def _match(
    corpus: CountedCorpus, found: tuple[Point, str, int, list[float]], reported: Sequence[Reported]
) -> Match:
    """IDENT-RANK. The match's nearest named profile, its full values and what it prints on the probes
    (``found``: the point, its tier, its distance in ulps and its screened estimates)."""
    point, tier, ulps, estimates = found
    mine = point.axes()
    nearest, theirs = min(
        _named_axes(),
        key=lambda pa: (
            sum(1 for a in mine if a != OUTPUT_AXIS and mine[a] != pa[1][a]),
            pa[0].name not in PROFILES,
        ),
    )
    changes = tuple(f"{a}={mine[a]}" for a in mine if a != OUTPUT_AXIS and mine[a] != theirs[a])
    full = Point(point.text, replace(point.options, round_digits=None), point.name)
    doubles = tool_values(corpus, full, estimates)
    exact = point.options.arithmetic == "exact"
    results = corpus.results(full) if exact else []
    scale = reported[0].scale
    values = tuple(
        reported_value(results[k], scale) if exact else Fraction(doubles[k]) for k in range(len(reported))
    )
    digits = point.options.round_digits
    probes = tuple(printed(v, digits) for v in tool_values(corpus, point, estimates)[len(reported) :])
    return Match(point, nearest.name, changes, _native(nearest, reported[0]), values, tier, probes, ulps)


# --- printing -------------------------------------------------------------------------------------


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _how(m: Match) -> str:
    """How a match prints the number: every digit, or how near (IDENT-MATCH)."""
    return "every digit" if m.exact else f"{_plural(m.ulps, 'ulp')} off"


def _where(m: Match) -> str:
    return "named profile" if not m.distance else f"{_plural(m.distance, 'axis', 'axes')} changed"


def most_likely(result: Identification) -> str:
    """IDENT-OUTPUT. The first line: the most likely answer and how sure it is: its distance, whether it
    prints every digit, its ties (the other points of its very value, which these files cannot tell
    apart) and its rivals (other values as near, which more digits would separate), within WIDTH.

    >>> most_likely(Identification((parse_reported("28.3"),), ("s",), (), {}, 0, 0.0, 0, ()))
    'no point tried prints 28.3 on these files'
    """
    classes = result.classes()
    if not classes:
        return f"no point tried prints {result.reported[0].text} on these files"
    best = classes[0][0]
    rivals = [c for c in classes[1:] if (c[0].exact, c[0].distance) == (best.exact, best.distance)]
    facts = [_where(best), _how(best)]
    if len(classes[0]) > 1:
        facts.append(_plural(len(classes[0]) - 1, "tie"))
    if rivals:
        facts.append(_plural(len(rivals), "rival value"))
    if len(facts) == 2:
        facts.append("no other point as near")
    while True:
        line = f"most likely: {best.label} ({', '.join(facts)})"
        if len(line) <= WIDTH or len(facts) == 2:
            return line
        facts.pop()


def ties(result: Identification, names: int | None = None) -> list[str]:
    """IDENT-TIES. Plain sentences: which matches print the same number, and what would separate them.

    ``names`` bounds how many names a sentence lists (the rest are counted), unless ``None``.
    """
    classes = result.classes()
    out: list[str] = []
    if not classes:
        return ["no point tried prints this number"]
    if len(result.matches) == 1:
        return ["one point prints this number"]
    if len(classes) > 1:
        shown = "; ".join(f"{c[0].label}: {_value(c[0])}" for c in classes)
        out.append(
            f"{len(result.matches)} points print {result.reported[0].text}; their full values fall into "
            f"{len(classes)} groups, which more printed digits would separate ({_bounded(shown, names)})"
        )
    for group in classes:
        if len(group) < 2:
            continue
        listed = _listed([m.label for m in group], names)
        probes = {m.probes for m in group}
        if len(probes) > 1:
            shown = "; ".join(f"{m.label}: {' '.join(m.probes)}" for m in group)
            out.append(
                f"{listed} give the same value here; the other systems given separate them "
                f"({_bounded(shown, names)})"
            )
        else:
            first = group[0].point.axes()
            differing = sorted({a for m in group for a, v in m.point.axes().items() if v != first[a]})
            extra = "" if not group[0].probes else " (the other systems given do not: the same digits there)"
            out.append(
                f"{listed} give the very same value on these files{extra}: only another system's number "
                f"or a second test set on which {', '.join(differing) or 'their axes'} matter separates them"
            )
    return out


def _listed(labels: Sequence[str], names: int | None) -> str:
    """Labels joined by semicolons (a label may hold commas), at most ``names`` of them."""
    if names is None or len(labels) <= names:
        return "; ".join(labels)
    return f"{'; '.join(labels[:names])} and {len(labels) - names} more"


def _bounded(text: str, names: int | None) -> str:
    items = text.split("; ")
    if names is None or len(items) <= names:
        return text
    return "; ".join(items[:names]) + f"; and {len(items) - names} more"


def to_json(result: Identification) -> dict[str, Any]:
    """IDENT-OUTPUT. The identification as one JSON object."""
    ranks = dict(_ranked(result))
    return {
        "most_likely": most_likely(result),
        "reported": [
            {"text": r.text, "scale": r.scale, "digits": r.digits, "system": s}
            for r, s in zip(result.reported, result.systems, strict=False)
        ],
        "tried": result.tried,
        "refused": result.refused,
        "countings": result.countings,
        "cpu_seconds": round(result.cpu_seconds, 3),
        "rows": [
            {
                "rank": ranks[id(group[0])],
                "values": [{"exact": str(v), "decimal": value_text(v, 17)} for v in group[0].values],
                "points": [m.label for m in group],
            }
            for group in result.classes()
        ],
        "matches": [
            {
                "rank": ranks[id(m)],
                "point": m.label,
                "nearest_profile": m.nearest,
                "changes": list(m.changes),
                "distance": m.distance,
                "native_form": m.native,
                "every_digit": m.exact,
                "ulps": m.ulps,
                "found_in": m.tier,
                "values": [{"exact": str(v), "decimal": value_text(v, 17)} for v in m.values],
                "probes": dict(zip(result.systems[len(result.reported) :], m.probes, strict=True)),
                "axes": m.point.axes(),
            }
            for m in result.matches
        ],
        "ties": ties(result),
        "notes": list(result.notes),
    }


def _ranked(result: Identification) -> list[tuple[int, int]]:
    """Each match's rank (by id): matches of one rank key share it (IDENT-RANK)."""
    out, rank, previous = [], 0, None
    for k, m in enumerate(result.matches, 1):
        key = (m.exact, m.distance, m.native)
        if key != previous:
            rank, previous = k, key
        out.append((id(m), rank))
    return out


def _value(m: Match) -> str:
    """A match's full value: a double as Python prints it (every digit that tells it apart), an exact
    value to 17 significant digits."""
    value = m.values[0]
    if m.point.options.arithmetic != "exact":
        return repr(float(value))
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.17g}"


def render(result: Identification, fmt: str = "text", *, verbose: bool = False) -> str:
    """IDENT-OUTPUT. The identification as text, Markdown (``markdown``) or JSON (``json``).

    Text fits WIDTH columns: the most likely answer first, then the number and what the search
    did, one row per value that prints it with the names that print it, the ties. Without
    ``verbose`` it shows the first ROWS rows and a few names of each; ``verbose`` shows every row,
    every name and each match's full convention list. Markdown shows everything.
    """
    if fmt == "json":
        return json.dumps(to_json(result), indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    verbose = verbose or md
    first = result.reported[0]
    form = f"{first.scale}, {first.digits} decimal{'s' if first.digits != 1 else ''}"
    tried = sum(result.tried.values())
    tiers = ", ".join(f"{k} {v}" for k, v in result.tried.items())
    head = [
        most_likely(result),
        f"{', '.join(r.text for r in result.reported)} ({form}) on "
        f"{', '.join(result.systems[: len(result.reported)])}",
        f"{len(result.matches)} of {tried} points screened print it ({tiers}); {result.refused} refused by "
        f"the reference; {result.countings} text conventions counted; {result.cpu_seconds:.1f} s CPU",
    ]
    lines = [f"**{head[0]}**", "", *head[1:]] if md else _wrap(head)
    lines.append("")
    classes = result.classes()
    ranks = dict(_ranked(result))
    shown = classes if verbose else classes[:ROWS]
    rows = []
    for group in shown:
        labels = [m.label for m in group]
        names = _listed(labels, None if verbose else 3)
        if not group[0].exact:
            names += f" ({_how(group[0])})"  # a near match (IDENT-MATCH)
        rows.append([str(ranks[id(group[0])]), str(group[0].distance), _value(group[0]), names])
    table_head = ["rank", "distance", "full value", "points that print it"]
    if md:
        lines += ["| " + " | ".join(table_head) + " |", "|" + "---|" * len(table_head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    elif rows:
        lines += _wrapped_table(table_head, rows)
    if len(shown) < len(classes):
        lines.append(f"... {len(classes) - len(shown)} more values print it (-v shows every row and name)")
    if verbose and result.matches:
        lines.append("")
        lines.append(f"{'### ' if md else ''}conventions of each match")
        for m in result.matches:
            conventions = "; ".join(f"{a}={v}" for a, v in m.point.axes().items())
            lines.append(f"{'- ' if md else ''}{ranks[id(m)]}. {m.label}: {conventions}")
    lines.append("")
    sentences = ties(result, None if verbose else 3)
    if not verbose:
        sentences = sentences[: 1 + TIES]
    notes = [f"note: {n}" for n in result.notes]
    if md:
        lines += [f"- {sentence}" for sentence in sentences] + notes
    else:
        lines += _wrap([*sentences, *notes])
    return "\n".join(lines)


def _wrap(paragraphs: Sequence[str]) -> list[str]:
    """Each paragraph wrapped at WIDTH columns at word boundaries, its next lines indented."""
    out: list[str] = []
    for text in paragraphs:
        out += textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_on_hyphens=False) or [""]
    return out


def _wrapped_table(head: list[str], rows: list[list[str]]) -> list[str]:
    """A text table whose last column wraps at word boundaries so that every line fits WIDTH."""
    widths = [max(len(r[j]) for r in [head, *rows]) for j in range(len(head) - 1)]
    indent = sum(widths) + 2 * len(widths)
    room = max(WIDTH - indent, 20)
    out = []
    for row in [head, *rows]:
        cells = "".join(row[j].ljust(widths[j] + 2) for j in range(len(widths)))
        wrapped = textwrap.wrap(row[-1], room, break_on_hyphens=False) or [""]
        out.append((cells + wrapped[0]).rstrip())
        out += [" " * indent + more for more in wrapped[1:]]
    return out
