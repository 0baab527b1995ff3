"""The OPEN-* rows: questions beyond the closed alphabet, each feature a row (spec CONF-OPEN).

Each feature of :mod:`conformance.runner.features` is asked on the hypotheses only, the
references only and both, as the questions are made (never folded or tokenized first), and each
answer is compared with the reference at the target's conventions on the tokens the target should
score: its tokenizer and case folding applied to both sides alike. A feature the target cannot be
asked (a text feature of a token target, an execution context of a program that is not served by
the Python harness, a corpus question of a sentence-only target, a run limit spent) is ``n/a``
with the reason, and the report's coverage section says so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from conformance.runner.features import FEATURES, Feature, Question, questions
from conformance.runner.fingerprint.base import SKIPPED, Answer, Corpus, Text, ask, reference_prediction, seen
from conformance.runner.judge.base import Check, JudgeBase, covered
from conformance.runner.references import expressible
from reference_bleu.text.tokenizers import fold_case, tokenize_line

#: A question whose corpus holds more tokens than this is shown in a report by its description (the
#: seed regenerates it), not whole.
SHOWN_TOKENS = 2_000
#: The text conventions of a text target the fingerprint found nothing for: whitespace, no folding.
PLAIN_TEXT = ("none", "none", "unicode")


def should_score(question: Question, text: Text, tokens: bool = False) -> Corpus:
    """CONF-OPEN. The tokens the target should score for ``question``: lines tokenized by its text
    conventions (whitespace without any found), token lists as its case folding sees them, on both
    sides alike. A token target (``tokens``) folds each token it is given and never splits one (a
    token with a space inside stays one token); a text target is sent them joined with spaces."""
    if question.lines:
        triple = text or PLAIN_TEXT
        hyps = [tokenize_line(h, *triple) for h in question.corpus[0]]
        refs = [[tokenize_line(r, *triple) for r in rs] for rs in question.corpus[1]]
        return hyps, refs
    if tokens and text is not None:
        folding = text[1]

        def folded(sentence: list[str]) -> list[str]:
            return [fold_case(token, folding) for token in sentence]  # type: ignore[arg-type]

        return [folded(h) for h in question.corpus[0]], [[folded(r) for r in rs] for rs in question.corpus[1]]
    return seen(question.corpus, text)


def tokens_in(question: Question) -> int:
    """How many tokens (or words of lines) a question holds."""
    hyps, refs = question.corpus
    count = len

    def size(s: Any) -> int:
        return len(s.split()) if isinstance(s, str) else count(s)

    return sum(size(h) for h in hyps) + sum(size(r) for rs in refs for r in rs)


def shown(question: Question) -> dict[str, Any]:
    """A question as a report shows it: the feature, the side, what it carries, and the corpus itself
    when it is small (a large one is regenerated from the seed)."""
    out: dict[str, Any] = {"feature": question.feature, "side": question.side, "carries": question.carries}
    if question.context:
        out["context"] = question.context
    if tokens_in(question) <= SHOWN_TOKENS:
        out["hypotheses"], out["references"] = question.corpus
    return out


class OpenChecks(JudgeBase):
    """The OPEN-* rows (spec CONF-OPEN): one per feature of real inputs."""

    def open_checks(self) -> None:
        """CONF-OPEN. Every feature of :data:`~conformance.runner.features.FEATURES`, in order."""
        for feature in FEATURES:
            self.checks.append(self._feature(feature))

    def _not_applicable(self, feature: Feature) -> str:
        """Why ``feature`` cannot be asked of this target, or ""."""
        caps = self.target.capabilities
        if caps.input not in feature.inputs:
            return f"a question of {' or '.join(feature.inputs)} targets; this one takes {caps.input}"
        if feature.python and not caps.contexts:
            return "asked of Python targets served by the harness only (its contexts: thread, fork)"
        if feature.corpus_only and "corpus" not in caps.levels:
            return "a corpus question; the target has no corpus entry point"
        if self.target.not_asked:
            return f"not asked: {self.target.not_asked_because}"
        unknown = self.unknown_axes()
        if caps.input == "text" and "tokenize" in unknown:  # its prediction rests on the tokenizer
            return (
                f"rests on tokenize (where {unknown['tokenize']} found no known convention): n/a until "
                "that convention is known (CONF-JUDGE)"
            )
        return ""

    def open_expected(self, question: Question) -> Answer:
        """The reference's answer at the target's conventions on what it should score."""
        tokens = self.target.capabilities.input == "tokens"
        return reference_prediction(self.config, should_score(question, self.fingerprint.text, tokens))

    def asked(self, question: Question) -> list[tuple[Corpus, Answer]]:
        """The question as the target can be asked it: whole at the corpus level, else each segment
        alone at the sentence level; each part with the target's answer."""
        kind = self.target.references
        corpus = expressible(kind, question.corpus)
        if "corpus" in self.target.capabilities.levels:
            parts = [corpus]
        else:
            parts = [([h], [r]) for h, r in zip(*corpus, strict=True)]
        return [(part, ask(self.target, part, context=question.context)) for part in parts]

    def _feature(self, feature: Feature) -> Check:
        """One feature's row: pass when every part of every question agrees with the reference."""
        why_not = self._not_applicable(feature)
        if why_not:
            return Check(feature.id, feature.statement, "n/a", why_not, feature.spec_ids)
        answered_before, skipped_before = self.target.answered, self.target.skipped
        failure: Check | None = None
        posed = questions(feature, self.seed)
        for question in posed:
            for part, answer in self.asked(question):
                if answer == SKIPPED or failure is not None:
                    continue
                failure = self._failure(feature, replace(question, corpus=part), answer)
        answered = self.target.answered - answered_before
        asked = answered + self.target.skipped - skipped_before
        if failure is not None:
            return covered(_counted(failure, answered, asked))
        sides = sorted({q.side for q in posed})
        detail = f"{len(posed)} question(s) on the {', '.join(sides)}: {posed[0].carries}"
        if any(q.context == "fork" for q in posed) and self.target.fork_unsafe:
            detail += (
                f"; not after a fork: a child forked for the question gave no answer "
                f"({self.target.fork_unsafe[:120]}): the target does not survive a fork (a thread "
                "pool or a lock held across it), which says nothing of its BLEU"
            )
        passed = Check(feature.id, feature.statement, "pass", detail, feature.spec_ids)
        return covered(_counted(passed, answered, asked))

    def _failure(self, feature: Feature, question: Question, answer: Answer) -> Check | None:
        """The row failed on ``question``: the target's fault, or an answer that is not the
        reference's; None when it agrees."""
        where = f"{question.carries}, on the {question.side}"
        row = (feature.id, feature.statement, "fail")
        if isinstance(answer, str) and answer.startswith("fault:"):
            detail = f"{where}: the target failed ({answer.removeprefix('fault:')})"
            return Check(*row, detail, feature.spec_ids, shown(question), evidence=question)
        expected = self.open_expected(question)
        if self.same_answer(answer, expected):
            return None
        detail = (
            f"{where}: target {answer!r} != reference {expected!r}"
            f"{self.shown_as_declared(expected)} under {self.config}"
        )
        return Check(
            *row,
            detail,
            feature.spec_ids,
            shown(question),
            evidence=question,
            target_value=answer,
            expected_value=expected,
            expected_by=self.convention,
        )


def _counted(check: Check, answered: int, asked: int) -> Check:
    return replace(check, answered=answered, asked=asked)
