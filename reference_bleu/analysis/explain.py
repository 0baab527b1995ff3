"""The hand computation, printed: what the seed tutorials draw as tables (spec BLEU-PREC, BLEU-BP).

For one candidate and its references, order by order: each distinct n-gram of the
candidate with Count, Max_Ref_Count and Count_clip, the totals and p_n; then c, the
reference lengths and r, BP, the weights and the score. Everything is computed with the
formula functions themselves, so the table is the definition at work.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Context, localcontext
from fractions import Fraction

from reference_bleu.api import bleu_at
from reference_bleu.conventions.space import Point
from reference_bleu.formulas.counting import Sentence, count, count_clip, max_ref_count
from reference_bleu.formulas.exact import WORKING_DIGITS
from reference_bleu.formulas.statistics import segment_statistics
from reference_bleu.scoring.evaluation import BP_FORMULAS, Evaluation, early_return, evaluate
from reference_bleu.scoring.score import BleuResult, scored_units


def _fraction(x: Fraction | None) -> str:
    return "undefined (0/0) in the paper" if x is None else f"{x} = {float(x):.6f}"


def _points_view(n: int, paper: tuple[int, int], result: BleuResult, evaluation: Evaluation) -> str:
    """What the options make of order n, when it is not the paper's plain m_n/l_n: the point's own
    denominator (EC-015), an undefined order's rule (EC-003), the value that enters the formula
    (a sentinel or log constant for 0, EC-002; a smoothed value, SMOOTH) and its weight."""
    options = result.options
    m, l_n = result.statistics.matches[n - 1], result.statistics.totals[n - 1]
    notes = []
    if (m, l_n) != paper:
        notes.append(f"p_{n} = {m}/{l_n} (denominator={options.denominator}, EC-015)")
    if early_return(result.statistics, options):
        rule = f"early_return={options.early_return}, EC-016"
        return "  as these options compute it: " + "; ".join(
            [*notes, f"not reached: BLEU is 0 first ({rule})"]
        )
    value, weight, smoothed = evaluation.values[n - 1], evaluation.w[n - 1], evaluation.p[n - 1]
    if l_n == 0:
        rule = (
            "effective order"
            if options.effective_order
            else f"undefined_precision={options.undefined_precision}"
        )
        notes.append(f"0/0 ({rule}, EC-003)")
    if weight == 0:
        notes.append("left out: weight 0")
        return "  as these options compute it: " + "; ".join(notes)
    if smoothed is not None and l_n and Fraction(smoothed) != Fraction(m, l_n):
        notes.append(f"smoothed to {float(smoothed):.12g} ({options.smoothing})")
    if smoothed is None or Fraction(smoothed) == 0:
        if evaluation.log_zero is not None:
            notes.append(f"log p_{n} taken as {evaluation.log_zero} (zero={options.zero_precision}, EC-002)")
        elif value != 0:
            notes.append(f"enters the formula as {float(value):.12g} (zero={options.zero_precision}, EC-002)")
        else:
            notes.append("enters the formula as 0: BLEU 0 (EC-002)")
    if not notes:
        return ""
    return "  as these options compute it: " + "; ".join([*notes, f"weight {weight}"])


def _table(rows: Sequence[tuple[str, ...]], header: tuple[str, ...]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join("-" * w for w in widths)

    def fmt(row: tuple[str, ...]) -> str:
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
        return "  ".join(cells).rstrip()

    return [fmt(header), line, *(fmt(r) for r in rows)]


def explain(candidate: Sentence, references: Sequence[Sentence], point: Point) -> str:
    """The order-by-order computation of sentence BLEU for ``candidate`` at ``point``, as text."""
    options = point.options
    out: list[str] = [
        f"candidate ({len(candidate)} tokens): {' '.join(candidate)}",
        *(f"reference {k + 1} ({len(r)} tokens): {' '.join(r)}" for k, r in enumerate(references)),
        "",
    ]
    result = bleu_at(point, [candidate], [references])
    stats = segment_statistics(candidate, references, options.statistics_orders, options.ref_length)
    with localcontext(Context(prec=WORKING_DIGITS)):  # the options' own p_n, as the score is computed
        evaluation = evaluate(*scored_units([stats], options)[0], options=options)
    for n in range(1, options.max_order + 1):
        counts = count(candidate, n)
        max_ref = max_ref_count(references, n)
        rows = [
            (" ".join(g), str(k), str(max_ref[g]), str(count_clip(k, max_ref[g])))
            for g, k in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        ]
        clipped = sum(count_clip(k, max_ref[g]) for g, k in counts.items())
        total = sum(counts.values())
        out.append(f"order n = {n}")
        if rows:
            out.extend(_table(rows, (f"{n}-gram", "Count", "Max_Ref_Count", "Count_clip")))
        else:
            out.append(f"(the candidate has no {n}-grams)")
        p_n = Fraction(clipped, total) if total else None
        out.append(f"p_{n} = {clipped}/{total}: {_fraction(p_n)}")
        view = _points_view(n, (clipped, total), result, evaluation)
        out.extend([view, ""] if view else [""])
    lengths = ", ".join(str(len(r)) for r in references)
    formula = "1 (c >= r)" if result.brevity_penalty_decimal == 1 else BP_FORMULAS[options.brevity_penalty]
    out.extend(
        [
            f"c = {result.hyp_len}; reference lengths {lengths}; "
            f"r = {result.ref_len} (rule: {options.ref_length})",
            f"BP = {formula} = {result.brevity_penalty_decimal:.20}",
            "w_n = " + ", ".join(str(w) for w in result.effective_weights),
        ]
    )
    if options.smoothing != "none":
        smoothed = ", ".join("undefined" if p is None else f"{p:.12g}" for p in result.smoothed_precisions)
        out.append(f"smoothed p_n ({options.smoothing}) = {smoothed}")
    conventions = options.convention_fields()
    if conventions:  # the tool's own steps (spec chapter 13) change what the table above gives
        out.append("conventions beyond the paper (spec 13): " + ", ".join(conventions))
    out.append(f"BLEU = BP · exp(Σ w_n log p_n) = {result.score_decimal:.20} (float {result.score!r})")
    if result.reported_text != repr(result.score):
        out.append(f"reported as the tool reports it: {result.reported_text}")
    out.append(f"signature: {result.signature}")
    return "\n".join(out)
