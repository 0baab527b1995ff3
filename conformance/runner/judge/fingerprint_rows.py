"""The fingerprint's rows: each point's finding as a check, and the declared scale (CONF-JUDGE)."""

from __future__ import annotations

from dataclasses import replace

from conformance.runner.fingerprint import unobservable
from conformance.runner.fingerprint.base import SKIPPED, Finding
from conformance.runner.fingerprint.brevity import BUG
from conformance.runner.judge.base import Check, JudgeBase, covered


class FingerprintRows(JudgeBase):
    """The fingerprint's rows: each point's finding as a check, and the declared scale (CONF-JUDGE)."""

    def fingerprint_checks(self) -> None:
        """One row per point: a spec convention passes; a divergence or an unknown behaviour does not.

        A row's coverage is judged as every check's (CONF-JUDGE): diagnostics the target answered
        ``skipped`` without having declared it cannot take them count as asked, so a point it
        starved is ``insufficient``, never n/a nor settled on what is left."""
        for finding in self.fingerprint.findings:
            row = self._unasked_row(finding) if finding.unasked else self._row(finding)
            if finding.declined:
                answered = sum(answer != SKIPPED for answer in finding.answers)
                row = covered(replace(row, asked=answered + finding.declined, answered=answered))
            self.checks.append(row)

    def _unasked_row(self, finding: Finding) -> Check:
        """The row of a point some of whose diagnostics a spent run limit left unasked (CONF-ROBUST):
        missing evidence, whatever the rest matched."""
        answered = sum(answer != SKIPPED for answer in finding.answers)
        detail = f"{finding.unasked} of its diagnostics not asked: {self.target.not_asked_because}"
        return Check(
            finding.point.id,
            finding.point.question,
            "insufficient",
            detail,
            finding.point.ec,
            asked=len(finding.answers),
            answered=answered,
        )

    def _row(self, finding: Finding) -> Check:
        """The row of one point."""
        point, convention = finding.point, finding.convention
        kind = self.target.references
        hidden = unobservable((finding,), kind)
        if not finding.asked and hidden:
            detail = (
                f"not observable: the target takes {kind} reference(s) per segment, and every diagnostic "
                f"needs another number of references; no answer it gives can show {', '.join(hidden)}"
            )
            return Check(point.id, point.question, "n/a", detail, point.ec)
        if not finding.asked:
            levels = ", ".join(self.target.capabilities.levels)
            if self.target.references != "any":
                levels += f"; {self.target.references} reference(s) per segment"
            detail = f"no evidence: every diagnostic was skipped (the target declares: {levels})"
            return Check(point.id, point.question, "n/a", detail, point.ec)
        if convention is None:
            detail = "matches no known convention"
            if finding.faults:  # no behaviour to read: the fault is the robustness checks' (CONF-ROBUST)
                faults = ", ".join(f"fault:{kind}" for kind in finding.faults)
                detail = f"not readable: the target answered its diagnostics with {faults}"
            return Check(point.id, point.question, "fail", detail, point.ec, finding.evidence())
        if BUG in convention.flags:  # a known bug, named: not a convention (FP-BP's lengths)
            return Check(point.id, point.question, "fail", convention.name, point.ec, finding.evidence())
        if convention.divergence:
            return Check(
                point.id,
                point.question,
                "explained",
                convention.name,
                point.ec,
                finding.evidence(),
                convention.divergence,
            )
        also = [m.name for m in finding.matched[1:]]
        detail = convention.name + (f" (equally: {'; '.join(also)})" if also else "")
        return Check(point.id, point.question, "pass", detail, point.ec)

    def declared_scale_check(self, declared: str | None) -> None:
        """A declared scale (``--scale`` or the target's capabilities) must be the observed one."""
        if declared is None:
            return
        observed = "percent" if self.fingerprint.scale == 100.0 else "unit"
        status = "pass" if declared == observed else "fail"
        self.checks.append(
            Check(
                "FP-SCALE-DECLARED",
                "the declared scale is the observed one",
                status,
                f"declared {declared}, observed {observed}",
                ("EC-013",),
            )
        )
