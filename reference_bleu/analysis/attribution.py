"""Why two BLEU numbers differ: the difference attributed to each axis of the convention space (spec ATTR).

Two points A and B (two profiles, say) differ on some axes of CONV-SPACE. The attribution
scores every mixture of them, each axis taken from A or from B (2^k mixtures for k axes), on
the same files, and reports the difference v(B) - v(A) in two forms (ATTR-PATH, ATTR-SHAPLEY):
a path, which changes one axis at a time in a stated order and shows the score after each
step, and the Shapley values of the axes, the average of an axis's step over every order.
A mixture the reference refuses (an option pair make_options rejects, or an error on these
files) joins the axes involved into one (ATTR-INVALID). Every value is the number the point
reports, read exactly (a printed decimal, or the binary64 value, or the exact score to 40
digits) and put on one scale exactly; the arithmetic is in Fractions, so the contributions
add up to the difference exactly.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import factorial, floor
from typing import Any

from reference_bleu.analysis.counted import CountedCorpus
from reference_bleu.conventions.registry import AXES
from reference_bleu.conventions.space import Point, axes, differing_fields, field_axes, make_point, mixed
from reference_bleu.errors import BleuError, BleuOptionError
from reference_bleu.scoring.score import BleuResult

#: Most players the attribution scores 2^k mixtures for (4,096 mixtures).
MAX_AXES = 12
SCALES = ("percent", "unit")


def reported_value(result: BleuResult, scale: str) -> Fraction:
    """ATTR-VALUE. The number the point reports, read exactly, on ``scale`` (``unit`` or ``percent``).

    The printed decimal when the point rounds (EC-013); else its binary64 (or binary32) value;
    else, in exact arithmetic, the score to 40 significant digits.
    """
    options = result.options
    if options.round_digits is not None:
        value = Fraction(Decimal(result.reported_text))
        unit = value / 100 if options.scale == "percent" else value
    elif options.arithmetic != "exact":
        unit = Fraction(result.score)
    else:
        unit = Fraction(result.score_decimal)
    return unit * 100 if scale == "percent" else unit


@dataclass(frozen=True)
class Player:
    """One axis, or axes attributed together (ATTR-INVALID): their fields, their values at A and B."""

    axes: tuple[str, ...]
    fields: tuple[str, ...]
    before: str
    after: str

    @property
    def name(self) -> str:
        """The axes' names joined by ``+``."""
        return "+".join(self.axes)


@dataclass(frozen=True)
class Step:
    """One step of the path: the player changed and each system's value after it."""

    player: Player
    values: tuple[Fraction, ...]
    deltas: tuple[Fraction, ...]


@dataclass(frozen=True)
class Comparison:
    """ATTR. The attribution of v(B) - v(A) on each system: the path and the Shapley values."""

    a: Point
    b: Point
    systems: tuple[str, ...]
    scale: str
    start: tuple[Fraction, ...]
    end: tuple[Fraction, ...]
    printed: tuple[tuple[str, str], ...]
    players: tuple[Player, ...]
    path: tuple[Step, ...]
    shapley: tuple[tuple[Fraction, ...], ...]
    merged: tuple[str, ...]
    mixtures: int

    @property
    def difference(self) -> tuple[Fraction, ...]:
        """v(B) - v(A) on each system."""
        return tuple(b - a for a, b in zip(self.start, self.end, strict=True))

    def rankings(self) -> list[tuple[str, tuple[tuple[int, ...], ...]]]:
        """ATTR-RANKING. The systems ranked (best first; equal values tie) at A, then after each step."""
        rows = [("start", _ranking(self.start))]
        rows += [(step.player.name, _ranking(step.values)) for step in self.path]
        return rows


def _ranking(values: Sequence[Fraction]) -> tuple[tuple[int, ...], ...]:
    distinct = sorted(set(values), reverse=True)
    return tuple(tuple(k for k in range(len(values)) if values[k] == v) for v in distinct)


class _Values:
    """v(S) of every mixture S, memoised by the fields it sets; None where the reference refuses it."""

    def __init__(self, corpus: CountedCorpus, a: Point, b: Point, scale: str) -> None:
        self.corpus, self.a, self.b, self.scale = corpus, a, b, scale
        self.memo: dict[frozenset[str], tuple[Fraction, ...] | None] = {}

    def __call__(self, taken: frozenset[str]) -> tuple[Fraction, ...] | None:
        if taken not in self.memo:
            try:
                point = make_point(mixed(self.a, self.b, taken))
                results = self.corpus.results(point)
                self.memo[taken] = tuple(reported_value(r, self.scale) for r in results)
            except BleuError:
                self.memo[taken] = None
        return self.memo[taken]

    def need(self, taken: frozenset[str]) -> tuple[Fraction, ...]:
        """v(S) of a mixture that ATTR-INVALID made scorable (or an endpoint that was scored)."""
        value = self(taken)
        if value is None:
            raise BleuError("ATTR-INVALID", "a mixture left unscored: the axes were not joined")
        return value


def _players(a: Point, b: Point, order: Sequence[str] | None) -> list[Player]:
    """The differing fields grouped by axis (ATTR-AXES), in ``order`` or the axes' order."""
    owned = field_axes()
    groups: list[tuple[set[str], set[str]]] = []
    for name in differing_fields(a, b):
        mine = set(owned[name])
        joined = [g for g in groups if g[0] & mine]
        for g in joined:
            groups.remove(g)
            mine |= g[0]
        fields_ = {name}.union(*(g[1] for g in joined))
        groups.append((mine, fields_))
    ranked = list(order or ())
    known = axes()
    for axis in ranked:
        if axis not in known:
            raise BleuOptionError(
                "ATTR-PATH", f"unknown axis {axis!r} in the order; axes: {', '.join(known)}"
            )
    position = {axis: k for k, axis in enumerate([*ranked, *(x for x in known if x not in ranked)])}
    players = [_player(a, b, tuple(sorted(g[0], key=position.__getitem__)), g[1]) for g in groups]
    return sorted(players, key=lambda p: min(position[x] for x in p.axes))


def _player(a: Point, b: Point, names: tuple[str, ...], fields_: set[str]) -> Player:
    ordered = tuple(f for f in a.fields if f in fields_)
    va, vb = a.axes(), b.axes()
    return Player(
        names,
        ordered,
        "; ".join(va[x] for x in names),
        "; ".join(vb[x] for x in names),
    )


def _merge(players: list[Player], group: Sequence[Player], a: Point, b: Point) -> list[Player]:
    position = {p: k for k, p in enumerate(players)}
    first = min(group, key=position.__getitem__)
    names = tuple(x for p in sorted(group, key=position.__getitem__) for x in p.axes)
    merged = _player(a, b, names, {f for p in group for f in p.fields})
    return [merged if p is first else p for p in players if p is first or p not in group]


def _taken(players: Sequence[Player], mask: int) -> frozenset[str]:
    return frozenset(f for k, p in enumerate(players) if mask >> k & 1 for f in p.fields)


def _separable(players: list[Player], values: _Values, a: Point, b: Point) -> tuple[list[Player], list[str]]:
    """ATTR-INVALID. Players merged until every mixture is one the reference scores."""
    notes: list[str] = []
    while True:
        k = len(players)
        masks = sorted(range(1, (1 << k) - 1), key=lambda m: (m.bit_count(), m))
        bad = next((m for m in masks if values(_taken(players, m)) is None), None)
        if bad is None:
            return players, notes
        inside = [p for j, p in enumerate(players) if bad >> j & 1]
        outside = [(j, p) for j, p in enumerate(players) if not bad >> j & 1]
        fix = next((p for j, p in outside if values(_taken(players, bad | 1 << j)) is not None), None)
        group = [*inside, fix] if fix is not None else list(players)
        merged = "+".join(x for p in group for x in p.axes)
        notes.append(
            f"{merged}: the reference refuses a mixture of these axes, so they are attributed together"
        )
        players = _merge(players, group, a, b)


def compare(
    corpus: CountedCorpus,
    a: Point,
    b: Point,
    *,
    order: Sequence[str] | None = None,
    scale: str = "percent",
) -> Comparison:
    """ATTR. Attribute v(B) - v(A) on every system of ``corpus`` to the axes on which A and B differ.

    ``order`` lists axes to change first on the path (ATTR-PATH); the others follow in the
    order of CONV-SPACE. ``scale`` is ``percent`` or ``unit`` (ATTR-VALUE). The Shapley values
    (ATTR-SHAPLEY) are exact over every mixture. A or B refused on these files is a BleuError.

    >>> corpus = CountedCorpus([["a b c d"]], [["a b c d e"]], ["sys"])
    >>> from reference_bleu.conventions.space import profile_point
    >>> c = compare(corpus, profile_point("paper"), profile_point("nmt"))
    >>> [p.name for p in c.players], c.difference == (sum(s[0] for s in c.shapley),)
    (['ref_length', 'zero_length', 'arithmetic'], True)
    """
    if scale not in SCALES:
        raise BleuOptionError("ATTR-VALUE", f"scale must be percent or unit, not {scale!r}")
    values = _Values(corpus, a, b, scale)
    everything = frozenset(differing_fields(a, b))
    for point, taken in ((a, frozenset[str]()), (b, everything)):
        if values(taken) is None:
            corpus.results(point)  # raises the reference's own error for this point
    start, end = values.need(frozenset()), values.need(everything)
    players, merged = _separable(_players(a, b, order), values, a, b)
    if len(players) > MAX_AXES:
        raise BleuOptionError(
            "ATTR-SHAPLEY", f"{len(players)} axes differ; at most {MAX_AXES} are attributed"
        )
    path = _path(players, values, start)
    shapley = _shapley(players, values)
    printed = tuple(
        (ra.reported_text, rb.reported_text)
        for ra, rb in zip(corpus.results(a), corpus.results(b), strict=True)
    )
    return Comparison(
        a,
        b,
        tuple(corpus.names),
        scale,
        start,
        end,
        printed,
        tuple(players),
        path,
        shapley,
        tuple(merged),
        len(values.memo),
    )


def _path(players: Sequence[Player], values: _Values, start: tuple[Fraction, ...]) -> tuple[Step, ...]:
    """ATTR-PATH. One player changed at a time, in order; each system's value after each step."""
    steps, previous, mask = [], start, 0
    for k, player in enumerate(players):
        mask |= 1 << k
        current = values.need(_taken(players, mask))
        steps.append(Step(player, current, tuple(c - p for c, p in zip(current, previous, strict=True))))
        previous = current
    return tuple(steps)


def _shapley(players: Sequence[Player], values: _Values) -> tuple[tuple[Fraction, ...], ...]:
    """ATTR-SHAPLEY. φ_i = Σ_{S ⊆ P∖{i}} |S|! (k - |S| - 1)! / k! · (v(S ∪ {i}) - v(S)), per system."""
    k = len(players)
    weight = [Fraction(factorial(s) * factorial(k - s - 1), factorial(k)) for s in range(k)]
    out = []
    for i in range(k):
        total: list[Fraction] | None = None
        for mask in range(1 << k):
            if mask >> i & 1:
                continue
            with_i = values.need(_taken(players, mask | 1 << i))
            without = values.need(_taken(players, mask))
            step = [weight[mask.bit_count()] * (x - y) for x, y in zip(with_i, without, strict=True)]
            total = step if total is None else [t + s for t, s in zip(total, step, strict=True)]
        out.append(tuple(total or ()))
    return tuple(out)


# --- printing -------------------------------------------------------------------------------------


def shown(values: Sequence[Fraction], digits: int) -> list[str]:
    """ATTR-SHAPLEY. Values printed to ``digits`` decimals so that the printed column adds up to the
    printed sum (largest remainders: each value rounded down, then one unit more for the values
    with the largest remainders, as many as the correctly rounded sum needs)."""
    unit = Fraction(1, 10**digits)
    floors = [floor(v / unit) for v in values]
    target = round(sum(values, Fraction(0)) / unit)
    extra = target - sum(floors)
    order = sorted(range(len(values)), key=lambda j: (-(values[j] / unit - floors[j]), j))
    for j in order[:extra]:
        floors[j] += 1
    return [_decimal(n, digits) for n in floors]


def _decimal(units: int, digits: int) -> str:
    sign = "-" if units < 0 else "+"
    whole, part = divmod(abs(units), 10**digits)
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def value_text(value: Fraction, digits: int) -> str:
    """A value rounded half-even to ``digits`` decimals, without a sign."""
    return f"{Decimal(value.numerator) / Decimal(value.denominator):.{digits}f}"


def exact_text(value: Fraction) -> str:
    """The exact value: ``p/q``, or the integer."""
    return str(value)


def to_json(c: Comparison, digits: int) -> dict[str, Any]:
    """ATTR-OUTPUT. The comparison as one JSON object: each value exact (``p/q``) and as a decimal."""

    def num(x: Fraction) -> dict[str, str]:
        return {"exact": exact_text(x), "decimal": value_text(x, digits + 6)}

    systems = []
    for s, name in enumerate(c.systems):
        systems.append(
            {
                "name": name,
                "a": {"value": num(c.start[s]), "printed": c.printed[s][0]},
                "b": {"value": num(c.end[s]), "printed": c.printed[s][1]},
                "difference": num(c.difference[s]),
                "path": [
                    {"axis": st.player.name, "value": num(st.values[s]), "contribution": num(st.deltas[s])}
                    for st in c.path
                ],
                "shapley": {p.name: num(v[s]) for p, v in zip(c.players, c.shapley, strict=True)},
            }
        )
    return {
        "a": {"name": c.a.name, "axes": c.a.axes()},
        "b": {"name": c.b.name, "axes": c.b.axes()},
        "scale": c.scale,
        "axes": [
            {
                "axis": p.name,
                "fields": list(p.fields),
                "a": p.before,
                "b": p.after,
                "spec": [AXES[axis].field.spec_id for axis in p.axes],
                "meaning": [axis_meaning(axis, c.a, c.b) for axis in p.axes],
            }
            for p in c.players
        ],
        "path_order": [p.name for p in c.players],
        "merged": list(c.merged),
        "mixtures": c.mixtures,
        "systems": systems,
        "rankings": [
            {"after": label, "order": [[c.systems[k] for k in tied] for tied in order]}
            for label, order in c.rankings()
        ],
    }


def render(c: Comparison, fmt: str = "text", digits: int = 4) -> str:
    """ATTR-OUTPUT. The comparison as text, Markdown (``markdown``) or JSON (``json``)."""
    if fmt == "json":
        return json.dumps(to_json(c, digits), indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    lines: list[str] = []
    unit = "x100" if c.scale == "percent" else "[0, 1]"
    lines.append(f"{'## ' if md else ''}{c.a.name} -> {c.b.name}: BLEU on one scale ({c.scale}, {unit})")
    lines.append("")
    head = ["axis", c.a.name, c.b.name]
    rows = [[p.name, p.before, p.after] for p in c.players]
    lines += _table(head, rows, md)
    lines.append("")
    lines.append(f"{'### ' if md else ''}what each axis decides")
    for player in c.players:
        for axis in player.axes:
            text = axis_meaning(axis, c.a, c.b)
            lines += (
                [f"- {text}"]
                if md
                else textwrap.wrap(text, 100, initial_indent="  ", subsequent_indent="    ")
            )
    for note in c.merged:
        lines.append(f"note: {note} (spec ATTR-INVALID)")
    for s, name in enumerate(c.systems):
        lines.append("")
        lines.append(f"{'### ' if md else ''}{name}")
        a_text, b_text = value_text(c.start[s], digits), value_text(c.end[s], digits)
        lines.append(
            f"{c.a.name} {a_text} (prints {c.printed[s][0]}), "
            f"{c.b.name} {b_text} (prints {c.printed[s][1]}); "
            f"difference {shown([c.difference[s]], digits)[0]}"
        )
        lines.append("")
        deltas = shown([st.deltas[s] for st in c.path], digits)
        phis = shown([v[s] for v in c.shapley], digits)
        rows = [["(start)", c.a.name, a_text, "", ""]]
        for st, d, phi in zip(c.path, deltas, phis, strict=True):
            rows.append([st.player.name, st.player.after, value_text(st.values[s], digits), d, phi])
        total = shown([c.difference[s]], digits)[0]
        rows.append(["sum", "", "", total, total])
        lines += _table(
            ["path step", "set to", "score after", "path contribution", "Shapley value"], rows, md
        )
    lines.append("")
    lines.append(
        f"Path: one axis at a time in the order above (ATTR-PATH); Shapley: exact over the "
        f"{1 << len(c.players)} mixtures of {len(c.players)} axes (ATTR-SHAPLEY). Each column adds up to the "
        f"difference exactly in Fractions (JSON: exact values); printed to {digits} decimals by largest "
        "remainders, so the printed column adds up to the printed difference."
    )
    if len(c.systems) > 1:
        lines.append("")
        lines.append(f"{'### ' if md else ''}ranking (best first)")
        rows = []
        previous: tuple[tuple[int, ...], ...] | None = None
        for label, order in c.rankings():
            changed = "" if previous is None or order == previous else "changed"
            ranks = " > ".join(" = ".join(c.systems[k] for k in tied) for tied in order)
            rows.append([label, ranks, changed])
            previous = order
        lines += _table(["after", "ranking", ""], rows, md)
    return "\n".join(lines)


def axis_meaning(axis: str, a: Point, b: Point) -> str:
    """ATTR-OUTPUT. An axis in one line: its name and spec ID, what it decides, and what each point's
    value means (the registry's words, one name per value)."""
    field = AXES[axis].field
    text = f"{axis} ({field.spec_id}): {field.meaning}"
    for label, point in ((a.name or "A", a), (b.name or "B", b)):
        value = point.fields[field.name]
        meaning = field.values.get(str(value)) if isinstance(value, str) else None
        if meaning:
            text += f"; {label}: {value}, {meaning}"
    return text


def _table(head: list[str], rows: list[list[str]], md: bool) -> list[str]:
    if md:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        return out + ["| " + " | ".join(r) + " |" for r in rows]
    widths = [max(len(str(r[j])) for r in [head, *rows]) for j in range(len(head))]
    return ["  ".join(str(r[j]).ljust(widths[j]) for j in range(len(head))).rstrip() for r in [head, *rows]]
