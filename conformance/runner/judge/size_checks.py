"""Questions of real size (spec CONF-SIZE): late questions, the shipped test sets, generated corpora of
real shape; each compared with the reference at the fingerprinted point, like DIFF-CORPUS."""

from __future__ import annotations

from collections.abc import Callable

from conformance.runner.fingerprint.base import SKIPPED, Answer, Corpus, agrees, ask, reference_prediction
from conformance.runner.judge.base import Check, covered
from conformance.runner.judge.differential import DifferentialChecks
from conformance.runner.references import expressible
from conformance.runner.sizes import Question, questions
from reference_bleu.api import sentence_bleu
from reference_bleu.errors import BleuError

#: Before the questions of real size, the target has been asked at least this many questions per
#: example of the budget (2,500 at the default 100): the fingerprint's diagnostics are asked again
#: until then, so a target that changes after some thousand calls meets questions it answered before.
LATE_CALLS_PER_EXAMPLE = 25
#: The most questions asked to reduce a failing question of real size (halving its segments).
MAX_REDUCING_QUESTIONS = 40

#: A failure: the question's name, the (reduced) corpus, the target's answer, the expected answer.
Failure = tuple[str, Corpus, Answer, Answer]


class SizeChecks(DifferentialChecks):
    """Questions of real size (spec CONF-SIZE): SIZE-CALLS, SIZE-REAL, SIZE-GENERATED."""

    def size_checks(self) -> None:
        """CONF-SIZE. The late questions first (so that the large ones come after them), then the
        shipped test sets, then the generated corpora of real shape."""
        self.checks.append(self._late_questions())
        rows = (
            ("SIZE-REAL", "the shipped test sets score as the reference's"),
            (
                "SIZE-GENERATED",
                "long segments, eight references, long, non-ASCII and cut tokens score as the reference's",
            ),
        )
        if self.target.not_asked:  # a run limit is spent: nothing is built, asked or computed any more
            self.checks += [self._not_asked(ident, title) for ident, title in rows]
            return
        for (ident, title), posed in zip(rows, questions(self.seed, self.examples), strict=True):
            self.checks.append(self._questions(ident, title, posed))

    def _not_asked(self, ident: str, title: str) -> Check:
        """A row none of whose questions was asked: a run limit was spent before it (CONF-ROBUST)."""
        return Check(ident, title, "n/a", f"not asked: {self.target.not_asked_because}", ("CONF-SIZE",))

    def _late_questions(self) -> Check:
        """SIZE-CALLS: the fingerprint's diagnostics asked again, in rounds, until the target has been
        asked LATE_CALLS_PER_EXAMPLE questions per example (one round at least): each answer must be
        the one it gave the first time (an error is an answer here, as it was then)."""
        ident, title = "SIZE-CALLS", "the same question asked late gets the same answer"
        early = [
            (corpus, answer)
            for corpus, answer in self.fingerprint.battery()
            if isinstance(answer, float) or answer == "error"
        ]
        goal = LATE_CALLS_PER_EXAMPLE * self.examples
        answered, skipped = self.target.answered, self.target.skipped
        counting, self.target.count_errors = self.target.count_errors, False
        try:
            failure = None
            rounds = 0
            while early and failure is None and (rounds == 0 or self.target.calls < goal):
                calls = self.target.calls
                for corpus, first in early:
                    again = ask(self.target, corpus)
                    if not agrees(again, first, self.fingerprint.tolerance, self.fingerprint.resolution):
                        failure = (corpus, again, first)
                        break
                rounds += 1
                if self.target.calls == calls:  # nothing was asked (time limit, restarts spent)
                    break
        finally:
            self.target.count_errors = counting
        done = self.target.answered - answered
        asked = done + self.target.skipped - skipped
        if failure is None and not asked and self.target.not_asked:
            return self._not_asked(ident, title)
        if failure is not None:
            corpus, again, first = failure
            detail = (
                f"answered {first!r} when first asked, {again!r} when asked again as its question "
                f"{self.target.calls}"
            )
            by = "its own first answer to the same question"
            return Check(
                ident,
                title,
                "fail",
                detail,
                ("CONF-SIZE",),
                corpus,
                (),
                answered=done,
                asked=asked,
                target_value=again,
                expected_value=first,
                expected_by=by,
            )
        detail = f"{done} diagnostics asked again, up to its question {self.target.calls}"
        return covered(Check(ident, title, "pass", detail, ("CONF-SIZE",), answered=done, asked=asked))

    def _questions(self, ident: str, title: str, posed: list[Question]) -> Check:
        """One row: each question asked at the corpus level, and its longest segment at the sentence
        level, where the target declares them; a failure is reduced by halving its segments."""
        answered, skipped = self.target.answered, self.target.skipped
        kind = self.target.references
        levels = self.target.capabilities.levels
        failure: Failure | None = None
        left_out: list[str] = []
        reached = posed
        for k, question in enumerate(posed):
            if self.target.not_asked:  # a run limit was spent: the rest is neither asked nor computed
                reached = posed[:k]
                break
            corpus = self.seen(expressible(kind, question.corpus))  # what it can take, as it sees it
            if "corpus" in levels:
                failure = self._asked(question.name, corpus, self._corpus_answer, left_out)
            if failure is None and "sentence" in levels:
                longest = max(range(len(corpus[0])), key=lambda k: len(corpus[0][k]))
                one = ([corpus[0][longest]], [corpus[1][longest]])
                failure = self._asked(
                    f"{question.name}, its longest segment as a sentence",
                    one,
                    self._sentence_answer,
                    left_out,
                )
            if failure is not None:
                break
        done = self.target.answered - answered
        asked = done + self.target.skipped - skipped
        if failure is None and not asked and self.target.not_asked:
            return self._not_asked(ident, title)
        if failure is None:
            detail = f"{len(reached)} questions ({'; '.join(q.name for q in reached)})"
            if left_out:
                detail += f"; outside the point's domain, not asked: {'; '.join(left_out)}"
            if len(reached) < len(posed):
                detail += f"; {len(posed) - len(reached)} more not asked: {self.target.not_asked_because}"
                return Check(ident, title, "insufficient", detail, ("CONF-SIZE",), answered=done, asked=asked)
            return covered(Check(ident, title, "pass", detail, ("CONF-SIZE",), answered=done, asked=asked))
        name, corpus, answer, expected = failure
        detail = f"{name}: target {answer!r} != reference {expected!r} under {self.config}"
        return Check(
            ident,
            title,
            "fail",
            detail,
            ("CONF-SIZE", "BLEU-EVAL"),
            corpus,
            target_value=answer,
            expected_value=expected,
            expected_by=self.convention,
            answered=done,
            asked=asked,
        )

    def _corpus_answer(self, corpus: Corpus) -> tuple[Answer, Answer]:
        return ask(self.target, corpus, level="corpus"), reference_prediction(self.config, corpus)

    def _sentence_answer(self, corpus: Corpus) -> tuple[Answer, Answer]:
        try:
            expected: Answer = sentence_bleu(corpus[0][0], corpus[1][0], **self.config).score
        except BleuError:
            expected = "error"
        return ask(self.target, corpus, level="sentence"), expected

    def _asked(
        self,
        name: str,
        corpus: Corpus,
        answer_of: Callable[[Corpus], tuple[Answer, Answer]],
        left_out: list[str],
    ) -> Failure | None:
        """Ask one question; a wrong answer is reduced (halves of its segments tried in turn, while
        one still fails) and returned with the question's name, else None."""
        answer, expected = answer_of(corpus)
        if expected == "error" and answer in ("error", SKIPPED):
            left_out.append(name)  # outside the point's domain (it refuses it): not this row's question
            return None
        if answer == SKIPPED or self.same_answer(answer, expected):
            return None
        asked = 0  # a fault (a crash, a hang) is not reduced: each would cost a restart
        while len(corpus[0]) > 1 and asked < MAX_REDUCING_QUESTIONS and not str(answer).startswith("fault:"):
            half = len(corpus[0]) // 2
            for part in ((corpus[0][:half], corpus[1][:half]), (corpus[0][half:], corpus[1][half:])):
                asked += 1
                got, wanted = answer_of(part)
                if got != SKIPPED and not self.same_answer(got, wanted):
                    corpus, answer, expected = part, got, wanted
                    break
            else:
                break
        reduced = "" if asked == 0 else f" (reduced to {len(corpus[0])} segment(s))"
        return name + reduced, corpus, answer, expected
