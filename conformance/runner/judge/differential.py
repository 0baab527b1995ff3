"""Differential checks: the target against the reference at its fingerprinted point, corpus, sentence
and statistics; a difference is accounted for only by the point the verdict places the target at (CONF-JUDGE,
CONF-VERDICT)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from hypothesis import assume

from conformance.runner.client import TargetFaultError
from conformance.runner.fingerprint.base import Corpus, reference_prediction
from conformance.runner.judge.base import Check, CheckFailureError, JudgeBase
from conformance.suite.invariants import same_statistics, statistics_of
from conformance.suite.strategies import corpora
from reference_bleu.api import corpus_bleu, sentence_bleu
from reference_bleu.errors import BleuError


class DifferentialChecks(JudgeBase):
    """Differential checks: the target against the reference at its fingerprinted point, corpus, sentence"""

    def expected(self, corpus: Corpus) -> float | str:
        """The reference's answer under the target's conventions, on the tokens the target sees."""
        return reference_prediction(self.config, self.seen(corpus))

    def differential_checks(self) -> None:
        """Scores (corpus, sentence) and statistics against the reference configured to the conventions."""

        def corpus_body(corpus: Corpus) -> None:
            assume(self.acceptable(corpus))
            try:
                answer: float | str = self.target.corpus(*corpus).score
            except TargetFaultError as fault:
                if fault.kind != "error":
                    raise
                answer = "error"
            expected = self.expected(corpus)
            if not self.same_answer(answer, expected):
                rounded = self.shown_as_declared(expected)
                raise CheckFailureError(
                    f"target {answer!r} != reference {expected!r}{rounded} under {self.config}",
                    corpus,
                    values=(answer, expected, self.convention),
                )

        self.checks.append(
            self._run(
                "DIFF-CORPUS",
                "corpus score equals the reference's under the same conventions",
                corpora(),
                corpus_body,
                ("BLEU-EVAL",),
            )
        )
        caps = self.target.capabilities
        if "sentence" in caps.levels:

            def sentence_body(corpus: Corpus) -> None:
                one = (corpus[0][:1], corpus[1][:1])
                assume(self.acceptable(one))
                outcome = self.target.sentence(one[0][0], one[1][0])
                assert outcome is not None
                try:
                    hyps, refs = self.seen(one)
                    expected: float | str = sentence_bleu(hyps[0], refs[0], **self.config).score
                except BleuError:
                    expected = "error"
                if not self.same_answer(outcome.score, expected):
                    rounded = (
                        self.fingerprint.resolution.as_declared(expected)
                        if isinstance(expected, float)
                        else ""
                    )
                    raise CheckFailureError(
                        f"sentence score {outcome.score!r} != reference {expected!r}{rounded}",
                        one,
                        values=(outcome.score, expected, self.convention),
                    )

            self.checks.append(
                self._run(
                    "DIFF-SENTENCE",
                    "sentence score equals the reference's",
                    corpora(max_segments=1),
                    sentence_body,
                    ("EC-009",),
                )
            )
        else:
            self.checks.append(
                Check(
                    "DIFF-SENTENCE",
                    "sentence score equals the reference's",
                    "n/a",
                    "no sentence entry point",
                    ("EC-009",),
                )
            )
        if caps.statistics:

            def stats_body(corpus: Corpus) -> None:
                assume(self.acceptable(corpus))
                out = self.target.corpus(*corpus)
                ref = corpus_bleu(*self.seen(corpus), **self.config)
                got = statistics_of(out, len(ref.matches))
                want = (ref.matches, ref.totals, ref.hyp_len, ref.ref_len)
                if not same_statistics(got, want):
                    raise CheckFailureError(
                        f"statistics (m, l, c, r) {got} != reference {want}",
                        corpus,
                        values=(_plain(got), _plain(want), self.convention),
                    )

            stats = self._run(
                "DIFF-STATS",
                "statistics equal the reference's, exactly",
                corpora(),
                stats_body,
                ("BLEU-STATS", "BLEU-CORPUS"),
            )
            self.checks.append(replace(stats, compared="statistics"))
        else:
            self.checks.append(
                Check(
                    "DIFF-STATS",
                    "statistics equal the reference's, exactly",
                    "n/a",
                    "target exposes no statistics",
                    ("BLEU-STATS",),
                )
            )


def _plain(statistics: tuple[Any, ...]) -> list[Any]:
    """Statistics as JSON can hold them: tuples as lists, a rational r as a float."""
    return [
        list(v) if isinstance(v, tuple) else float(v) if isinstance(v, Fraction) else v for v in statistics
    ]
