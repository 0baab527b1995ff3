"""The invariants of spec 09 that hold under the target's conventions, each a property (CONF-JUDGE)."""

from __future__ import annotations

from typing import Any

from hypothesis import assume

from conformance.runner.fingerprint.base import Corpus
from conformance.runner.judge.base import Check, JudgeBase, corpus_of
from conformance.suite.invariants import INVARIANTS, PREMISES, Invariant, holds, rests_on
from reference_bleu.conventions.registry import axis_of

#: A corpus with the segment INV-EMPTY-SEGMENT appends (empty candidate, one empty reference):
#: a point that drops empty references (then has no reference) or refuses empty candidates
#: refuses it, and the invariant says nothing there.
EMPTY_SEGMENT_IN_CONTEXT: Corpus = ([["a"], []], [[["a"]], [[]]])


class InvariantChecks(JudgeBase):
    """The invariants of spec 09 that hold under the target's conventions, each a property (CONF-JUDGE)."""

    def _text_merges_tokens(self) -> str:
        """Why a text target's own tokenizer or case folding (FP-TEXT), or a token target's case folding
        (FP-CASE), does not keep INV-RENAME, or "".

        The renaming maps words to case variants ("the" to "The") and to words of other
        letters; case folding merges the first, a character tokenizer sees the second letter by
        letter. Neither is a bug: the convention was found and is judged on its own axis.
        """
        text = self.fingerprint.text
        if text is None or (text[1] == "none" and text[0] != "char"):
            return ""
        if self.target.capabilities.input != "text":  # a token target that folds case (FP-CASE)
            return f"does not hold for a token target with case {text[1]} (FP-CASE)"
        return f"does not hold for a text target with tokenize {text[0]}, case {text[1]} (FP-TEXT)"

    def invariant_checks(self) -> None:
        """Each invariant that must hold under the target's conventions, on generated inputs.

        An invariant whose needs the target does not meet is n/a with the reason: a capability it
        does not declare, or a premise (:data:`~conformance.suite.invariants.PREMISES`) its
        conventions break (it takes one reference per segment, its tokenizer merges tokens, its
        point refuses the empty segment)."""
        caps = self.target.capabilities
        why_not: dict[str, str] = {}  # each premise the target does not meet, and why
        if self.target.references != "any":
            why_not["references as given"] = (
                f"needs a segment's references permuted or duplicated; the target takes "
                f"{self.target.references} reference(s) per segment (CONF-PROTOCOL)"
            )
        if merging := self._text_merges_tokens():
            why_not["tokens as given"] = merging
        if not self.acceptable(EMPTY_SEGMENT_IN_CONTEXT):
            why_not["empty segment"] = (
                "the empty segment is outside the target's domain (its point refuses it)"
            )
        has = {
            "statistics": caps.statistics,
            "sentence": "sentence" in caps.levels,
            "brevity_penalty": caps.statistics,
            **{premise: premise not in why_not for premise in PREMISES},
        }
        unknown = self.unknown_axes()
        for invariant in INVARIANTS:
            missing = [need for need in sorted(invariant.needs) if not has.get(need, False)]
            premise = next((why_not[need] for need in missing if need in why_not), "")
            resting = sorted({axis_of(f).name for f in rests_on(invariant)} & set(unknown))
            if resting:  # one unknown behaviour is one headline, not an invariant broken for it too
                where = ", ".join(
                    f"{axis} (where {unknown[axis]} found no known convention)" for axis in resting
                )
                detail = f"rests on {where}: n/a until that convention is known (CONF-JUDGE)"
                self.checks.append(Check(invariant.id, invariant.statement, "n/a", detail, (invariant.id,)))
            elif missing:
                detail = premise or f"target exposes no {', '.join(missing)}"
                self.checks.append(Check(invariant.id, invariant.statement, "n/a", detail, (invariant.id,)))
            elif not holds(invariant.id, self.config):
                detail = "does not hold under the target's conventions (spec 09)"
                self.checks.append(Check(invariant.id, invariant.statement, "n/a", detail, (invariant.id,)))
            else:
                self.checks.append(self._invariant(invariant))

    def _seen_example(self, example: Any) -> Any:
        """An invariant's example with its corpus as a text target sees it (its tokenizer and case
        folding applied): the invariant's premise ("order 3 has no match") is then about the
        tokens the target scores, and the target, sent them joined, sees the same."""
        corpus = corpus_of(example)
        if corpus is not None and corpus is example:
            return self.seen(corpus)
        if isinstance(example, tuple) and example and corpus_of(example[0]) is not None:
            return (self._seen_example(example[0]), *example[1:])
        return example

    def _invariant(self, invariant: Invariant) -> Check:
        def body(example: Any) -> None:
            example = self._seen_example(example)
            corpus = corpus_of(example)
            if corpus is not None:
                assume(self.acceptable(corpus))
            invariant.check(self.target, example)

        as_given = "references as given" in invariant.needs
        return self._run(
            invariant.id, invariant.statement, invariant.strategy, body, (invariant.id,), as_given=as_given
        )
