"""The tools' own printed lines: multi-bleu.perl, mteval-v13a.pl and mteval-v14.pl, nltk's repr
(spec CONV-MULTI-BLEU, CONV-MTEVAL, CONV-NLTK, CONV-NUMBER-FORMS).

``reference-bleu score --profile multi-bleu`` prints the line multi-bleu.perl prints,
``--profile mteval-13a`` (and ``mteval-14-intl``) what the script prints under ``-b`` between its
header and its closing time stamp, ``--profile nltk`` what ``print(corpus_bleu(...))`` prints: each
number computed by the tool's own arithmetic (:mod:`reference_bleu.scoring.floating`), each string
in the tool's own format. A profile names its tool's form (``printed`` in ``profiles.json``,
spec CONV-PROFILE-DATA); the form applies only where the point and the text conventions are the
profile's and the text format is asked for, since elsewhere the tool would print other numbers.
sacrebleu's form, with its formats, signature and tests, is :mod:`reference_bleu.cli.printing`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.profiles import PROFILES, Profile
from reference_bleu.errors import BleuInputError
from reference_bleu.formulas.statistics import Statistics, corpus_statistics
from reference_bleu.scoring.evaluation import conventional_total, last_segment
from reference_bleu.scoring.floating import (
    MTEVAL_ORDERS,
    MtevalScore,
    mteval_score,
    multi_bleu_score,
    nltk_corpus_bleu,
)

#: A system to print: its name (the ``-i`` path as given) and its segments' statistics (one sum, or
#: every segment where the form reads them).
Named = tuple[str, Sequence[Statistics]]


def perl_number(value: float | int) -> str:
    """CONV-NUMBER-FORMS. A number as Perl interpolates it in a string: C's ``%.15g``, Perl's spelling
    of the infinities.

    >>> perl_number(60395 / 61287), perl_number(1.0), perl_number(-0.4), perl_number(13)
    ('0.98544552678382', '1', '-0.4', '13')
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return "%.15g" % value  # noqa: UP031 -- C's %g, which str.format spells the same only by chance


@dataclass(frozen=True)
class MultiBleuForm:
    """CONV-MULTI-BLEU. multi-bleu.perl's line: ``BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ...)``,
    one per system (each ``-i`` file is one run of the script)."""

    orders: ClassVar[int] = 4

    def needs_segments(self, options: BleuOptions) -> bool:
        """The line reads the corpus totals only."""
        return False

    def report(self, systems: Sequence[Named], options: BleuOptions) -> str:
        """Each system's line, in the order given."""
        return "".join(self.line(conventional_total(segments, options)) for _, segments in systems)

    @staticmethod
    def line(stats: Statistics) -> str:
        """multi-bleu.perl:148-169: the line of zeros when r = 0, else its printf of 100 x each value."""
        score = multi_bleu_score(stats)
        if score is None:
            return "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)\n"
        p = [100 * x for x in score.precisions]
        return (
            f"BLEU = {100 * score.score:.2f}, {p[0]:.1f}/{p[1]:.1f}/{p[2]:.1f}/{p[3]:.1f} "
            f"(BP={score.bp:.3f}, ratio={score.sys_len / score.ref_len:.3f}, "
            f"hyp_len={score.sys_len:d}, ref_len={score.ref_len:d})\n"
        )


_RULE = "# " + "-" * 72
_HEADER = "        " + "   ".join(f"{n}-gram" for n in range(1, MTEVAL_ORDERS + 1))
_DASHES = "        " + "   ".join(["------"] * MTEVAL_ORDERS)


@dataclass(frozen=True)
class MtevalForm:
    """CONV-MTEVAL. What mteval-v13a.pl (``v14=False``) or mteval-v14.pl prints under ``-b`` after its
    header: v13a's length ratio lines, the score lines, the individual and cumulative BLEU tables."""

    v14: bool
    orders: ClassVar[int] = MTEVAL_ORDERS

    @property
    def script(self) -> str:
        """The script's file name."""
        return "mteval-v14.pl" if self.v14 else "mteval-v13a.pl"

    def needs_segments(self, options: BleuOptions) -> bool:
        """The report reads the corpus totals only."""
        return False

    def report(self, systems: Sequence[Named], options: BleuOptions) -> str:
        """Every system, in Perl's ``sort`` order of their names (code points), as one report."""
        named = sorted(systems, key=lambda system: system[0])
        scored = [
            (name, self._score(name, corpus_statistics(segments, self.orders))) for name, segments in named
        ]
        out: list[str] = []
        if not self.v14:
            for _, score in scored:
                ratio = perl_number(score.hyp_len / score.ref_len)
                penalty = perl_number(math.log(score.bp))
                out.append(
                    f"length ratio: {ratio} ({score.hyp_len}/{score.ref_len}), penalty (log): {penalty}\n"
                )
        out += [f'\nBLEU score = {score.bleu:.4f} for system "{name}"\n' for name, score in scored]
        out.append(f"\n{_RULE}\n\nIndividual N-gram scoring\n{_HEADER}\n{_DASHES}\n")
        out += [self._row(name, score.individual) for name, score in scored]
        out.append(
            f"\n{_RULE}\n"
            + ("\n" if self.v14 else "")
            + f"Cumulative N-gram scoring\n{_HEADER}\n{_DASHES}\n\n"
        )
        out += [self._row(name, score.cumulative) for name, score in scored]
        return "".join(out)

    def _score(self, name: str, stats: Statistics) -> MtevalScore:
        if not self.v14 and (stats.hyp_len == 0 or stats.ref_len == 0):
            what = "c = 0: it takes log 0" if stats.hyp_len == 0 else "r = 0: it divides c by r"
            raise BleuInputError(
                "CONV-MTEVAL",
                f"mteval-v13a.pl prints no score for {name}: {what} in its length ratio line and dies "
                "(mteval-v13a.pl:854)",
            )
        return mteval_score(stats)

    def _row(self, name: str, values: Sequence[float]) -> str:
        cells = "".join(f"  {value:2.4f} " for value in values)
        return f' BLEU:{cells}{"  " if self.v14 else " "}"{name}"\n'


@dataclass(frozen=True)
class NltkForm:
    """CONV-NLTK. ``repr`` of what nltk's ``corpus_bleu`` returns, one line per system."""

    orders: ClassVar[int] = 0

    def needs_segments(self, options: BleuOptions) -> bool:
        """nltk's denominators are per segment, and methods 5 to 7 read the last one."""
        return True

    def report(self, systems: Sequence[Named], options: BleuOptions) -> str:
        """Each system's repr, in the order given."""
        method = _nltk_methods()[options.smoothing]
        auto = options.undefined_precision == "reweigh-by-length"
        weights = [float(w) for w in options.weights]
        lines = []
        for _, segments in systems:
            value = nltk_corpus_bleu(
                conventional_total(segments, options),
                last_segment(segments[-1], options),
                method,
                weights,
                auto_reweigh=auto,
            )
            lines.append(f"{value!r}\n")
        return "".join(lines)


def _nltk_methods() -> dict[str, int]:
    """The nltk family's map from ``method=k`` to the smoothing, read backwards (profiles.json)."""
    rule = PROFILES["nltk"].data["rules"][0]["options"]["smoothing"]
    return {smoothing: int(k) for k, smoothing in rule["map"].items()}


#: The printed forms this module renders, by the name a profile's ``printed`` gives.
TOOL_FORMS: dict[str, MultiBleuForm | MtevalForm | NltkForm] = {
    "multi-bleu": MultiBleuForm(),
    "mteval-v13a": MtevalForm(v14=False),
    "mteval-v14": MtevalForm(v14=True),
    "nltk": NltkForm(),
}


def tool_form(profile: Profile | None) -> MultiBleuForm | MtevalForm | NltkForm | None:
    """The line form of ``profile``'s tool, if it has one here (sacrebleu's is printing.py's)."""
    if profile is None or profile.printed is None:
        return None
    return TOOL_FORMS.get(profile.printed)
