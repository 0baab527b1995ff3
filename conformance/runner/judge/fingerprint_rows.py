"""The fingerprint's rows: each point's finding as a check, and the declared scale (CONF-JUDGE)."""

from __future__ import annotations

from conformance.runner.fingerprint.brevity import BUG
from conformance.runner.judge.base import Check, JudgeBase


class FingerprintRows(JudgeBase):
    """The fingerprint's rows: each point's finding as a check, and the declared scale (CONF-JUDGE)."""

    def fingerprint_checks(self) -> None:
        """One row per point: a spec convention passes; a divergence or an unknown behaviour does not."""
        for finding in self.fingerprint.findings:
            point, convention = finding.point, finding.convention
            if not finding.asked:
                levels = ", ".join(self.target.capabilities.levels)
                if self.target.references != "any":
                    levels += f"; {self.target.references} reference(s) per segment"
                detail = f"no evidence: every diagnostic was skipped (the target declares: {levels})"
                self.checks.append(Check(point.id, point.question, "n/a", detail, point.ec))
            elif convention is None:
                self.checks.append(
                    Check(
                        point.id,
                        point.question,
                        "fail",
                        "matches no known convention",
                        point.ec,
                        finding.evidence(),
                    )
                )
            elif BUG in convention.flags:  # a known bug, named: not a convention (FP-BP's lengths)
                self.checks.append(
                    Check(point.id, point.question, "fail", convention.name, point.ec, finding.evidence())
                )
            elif convention.divergence:
                self.checks.append(
                    Check(
                        point.id,
                        point.question,
                        "explained",
                        convention.name,
                        point.ec,
                        finding.evidence(),
                        tuple(d for d in convention.divergence if d != "peer"),
                    )
                )
            else:
                also = [m.name for m in finding.matched[1:]]
                detail = convention.name + (f" (equally: {'; '.join(also)})" if also else "")
                self.checks.append(Check(point.id, point.question, "pass", detail, point.ec))

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
