"""The language-neutral vectors whose options are the target's point (CONF-JUDGE, CONF-VECTORS)."""

from __future__ import annotations

from typing import Any

from conformance.runner.fingerprint.base import SKIPPED, ask
from conformance.runner.judge.base import Check
from conformance.runner.judge.differential import DifferentialChecks
from conformance.suite.loader import load_vectors
from reference_bleu.conventions.options import make_options
from reference_bleu.errors import BleuError


class VectorChecks(DifferentialChecks):
    """The language-neutral vectors whose options are the target's point (CONF-JUDGE, CONF-VECTORS)."""

    def vector_checks(self) -> None:
        """The vectors whose options are the target's conventions; ``acceptable`` alternatives honoured."""
        mine = make_options(**self.config)
        failures: list[str] = []
        first: tuple[Any, Any, str] | None = None  # the first failure's values, for the row
        used = 0
        for vector in load_vectors():
            try:
                if make_options(**vector.api_options()) != mine:
                    continue
            except BleuError:
                continue
            corpus = (vector.data["hypotheses"], vector.data["references"])
            if not vector.scored or not self.acceptable(corpus) or self.seen(corpus) != corpus:
                continue  # (a vector's tokens that the target's tokenizer would split are not its input)
            answer = ask(self.target, corpus)
            if answer == SKIPPED:  # several segments, and the target has no corpus entry point
                continue
            used += 1
            allowed = [float(vector.expected_score())] + [
                float(a["score"])
                for a in vector.data.get("acceptable", ())
                if a["convention"] in self._convention_names()
            ]
            if not any(self.same_answer(answer, value) for value in allowed):
                failures.append(f"{vector.id}: {answer!r} != {allowed[0]!r}")
                if first is None:
                    options = vector.api_options() or "the paper's"
                    first = (answer, allowed[0], f"vector {vector.id}, options {options}")
        title = "vectors under the target's conventions"
        if not used:
            self.checks.append(
                Check("VECTORS", title, "n/a", "no vector has these options", ("CONF-VECTORS",))
            )
        elif failures:
            got, wanted, by = first or (None, None, "")
            self.checks.append(
                Check(
                    "VECTORS",
                    title,
                    "fail",
                    f"{len(failures)} of {used} differ: " + "; ".join(failures[:5]),
                    ("CONF-VECTORS",),
                    target_value=got,
                    expected_value=wanted,
                    expected_by=by,
                )
            )
        else:
            self.checks.append(Check("VECTORS", title, "pass", f"{used} vectors", ("CONF-VECTORS",)))

    def _convention_names(self) -> set[str]:
        return {f.convention.name for f in self.fingerprint.findings if f.convention}
