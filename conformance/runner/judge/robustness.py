"""The ROB-* rows: every kind of fault the client met, with its first shrunk input; and the SKIPPED row,
the class of the questions the target skipped (CONF-ROBUST)."""

from __future__ import annotations

from conformance.runner.client import FAULT_KINDS
from conformance.runner.judge.base import Check, JudgeBase


class RobustnessChecks(JudgeBase):
    """The ROB-* rows: every kind of fault the client met, with its first shrunk input (CONF-ROBUST)."""

    def robustness_checks(self) -> None:
        """One row per kind of misbehaviour seen in the whole run (spec CONF-ROBUST)."""
        for kind in FAULT_KINDS:
            count = self.target.faults.get(kind, 0)
            ident = f"ROB-{kind.upper()}"
            title = f"no {kind} on valid input" if kind != "error" else "no error on valid input"
            if count:
                self.checks.append(
                    Check(
                        ident,
                        title,
                        "fail",
                        f"{count} time(s); first: {self.target.first_fault[kind]}",
                        ("CONF-ROBUST",),
                        self.fault_examples.get(kind, self.target.first_input.get(kind)),
                        fault=kind,
                    )
                )
            else:
                self.checks.append(
                    Check(ident, title, "pass", f"{self.target.calls} calls", ("CONF-ROBUST",), fault=kind)
                )
        self.checks.append(self.skipped_check())

    def skipped_check(self) -> Check:
        """CONF-ROBUST, coverage. Skips are evidence: a target that answered ``skipped`` to questions it
        was asked (a level and a reference count it declares) is never conformant on the rest alone;
        the row is ``insufficient`` and names the class of what it skipped (conformance.runner.skips)."""
        title = "skips no class of questions"
        record = self.target.skips
        answered, asked = record.answered, record.answered + len(record.skipped)
        if not record.skipped:
            detail = f"answered every question it was asked ({record.answered})"
            return Check("SKIPPED", title, "pass", detail, ("CONF-ROBUST",), answered=answered, asked=asked)
        return Check(
            "SKIPPED",
            title,
            "insufficient",
            record.described(),
            ("CONF-ROBUST",),
            answered=answered,
            asked=asked,
        )
