"""Judging a fingerprinted target: invariants, vectors, differential tests, robustness (spec CONF-JUDGE).

Every check has an ID and ends as ``pass``, ``fail`` (with the shrunk counterexample),
``explained`` (it differs as a known convention does: FP-PRECISION's binary32 (EC-013), or the
point the verdict places the target at, CONF-VERDICT), or ``n/a`` (with the reason: the target lacks the
capability, or the invariant does not hold under the convention it follows, spec 09).
A target is conformant when every point of its fingerprint is a spec convention and no check
is ``fail`` or ``explained``.

One family of checks a module, each a class on :class:`~.base.JudgeBase` (the target, its
fingerprint, the budget, and running a property as a check): :mod:`.fingerprint_rows`,
:mod:`.invariant_checks`, :mod:`.differential`, :mod:`.vector_checks` (the vectors at the
target's point, on the differential family), :mod:`.size_checks` (questions of real size, CONF-SIZE),
:mod:`.open_checks` (questions beyond the closed alphabet, CONF-OPEN) and :mod:`.robustness`.
:class:`Judge` combines them and runs them in report order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from conformance.runner.judge.base import Check
from conformance.runner.judge.fingerprint_rows import FingerprintRows
from conformance.runner.judge.invariant_checks import InvariantChecks
from conformance.runner.judge.open_checks import OpenChecks
from conformance.runner.judge.robustness import RobustnessChecks
from conformance.runner.judge.size_checks import SizeChecks
from conformance.runner.judge.vector_checks import VectorChecks


@dataclass
class Judge(FingerprintRows, InvariantChecks, VectorChecks, SizeChecks, OpenChecks, RobustnessChecks):
    """Runs every check on one fingerprinted target: one family of checks a module (spec CONF-JUDGE)."""

    def run(
        self, declared_scale: str | None = None, progress: Callable[[str], None] | None = None
    ) -> list[Check]:
        """Every check, in report order, each row marked with its family; ``progress`` is told the
        name of each generated-input stage as it starts."""
        stages: tuple[tuple[str, Callable[[], None], bool], ...] = (
            ("fingerprint", self.fingerprint_checks, False),
            ("declared", lambda: self.declared_scale_check(declared_scale), False),
            ("invariant", self.invariant_checks, True),
            ("vectors", self.vector_checks, True),
            ("differential", self.differential_checks, True),
            ("size", self.size_checks, True),
            ("open", self.open_checks, True),
            ("robustness", self.robustness_checks, False),
        )
        for family, stage, shown in stages:
            if progress and shown:
                progress(family)
            start = len(self.checks)
            stage()
            self.checks[start:] = [replace(check, family=family) for check in self.checks[start:]]
        return self.checks
