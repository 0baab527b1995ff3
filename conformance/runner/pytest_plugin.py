"""The conformance runner as a pytest plugin: one test per check, in your own CI (spec CONF-RUNNER).

    pytest --bleu-target mypkg.metrics:bleu                   # a callable or an adapter object
    pytest --bleu-target mypkg.metrics:bleu --bleu-input text --bleu-scale percent
    pytest --bleu-command "perl my_bleu.pl"                   # a program speaking the protocol
    pytest --bleu-target mypkg.metrics:bleu --bleu-expect sacrebleu --bleu-accept ref_length=shortest
    pytest --bleu-target mypkg.metrics:bleu --bleu-references one   # one reference per segment

Installed with reference-bleu (entry point ``pytest11``), the plugin does nothing unless one of
``--bleu-target`` or ``--bleu-command`` is given. Then the target is fingerprinted and judged
once, at collection, exactly as ``reference-bleu conform`` does (the same checks, seed and
budget give the same verdicts), and each check becomes a test ``bleu::CHECK-ID``: ``pass``
passes, ``n/a`` is skipped with its reason, ``fail`` and ``explained`` fail with the spec IDs,
the reason and the shrunk counterexample. One more test, ``bleu::VERDICT``, passes only when the
target is conformant to the expected BLEU (``--bleu-expect PROFILE``, default ``paper``, with the
values ``--bleu-accept AXIS=VALUE`` adds and ``--bleu-strict-domain``, as ``--expect``,
``--accept`` and ``--strict-domain``; spec CONF-VERDICT), and fails with the verdict's headline,
which names every axis where the target differs; for a not-conformant target the diagnosis
follows it (spec CONF-DIAGNOSIS: the known bug that explains every answer, or "no known fault").
``--bleu-references one|same|any`` declares the references per segment the target takes
(CONF-PROTOCOL). A target that cannot run, or a bad expectation, is a usage error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from conformance.runner.client import python_command
from conformance.runner.judge.base import Check
from conformance.runner.references import REFERENCE_KINDS
from reference_bleu.errors import BleuError

if TYPE_CHECKING:
    from conformance.runner.verdict import Verdict

_KEY = pytest.StashKey[list[Check]]()
_VERDICT = pytest.StashKey["Verdict | None"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """The plugin's options (the same meaning as ``reference-bleu conform``'s)."""
    group = parser.getgroup("bleu", "BLEU conformance (reference-bleu)")
    group.addoption("--bleu-target", default=None, help="a built-in peer or module:attr to judge")
    group.addoption("--bleu-command", default=None, help="a program speaking bleu-conform (no shell)")
    group.addoption("--bleu-input", choices=("tokens", "text"), default="tokens", help="tokens or text")
    group.addoption("--bleu-scale", choices=("unit", "percent"), default=None, help="the declared scale")
    group.addoption("--bleu-examples", type=int, default=100, help="generated examples per check")
    group.addoption("--bleu-seed", type=int, default=0, help="the seed of the generated examples")
    group.addoption("--bleu-timeout", type=float, default=10.0, help="seconds per call")
    group.addoption("--bleu-expect", default="paper", help="the BLEU you expect: a profile (default paper)")
    group.addoption(
        "--bleu-accept", action="append", default=[], help="also accept AXIS=VALUE (repeatable), as --accept"
    )
    group.addoption("--bleu-strict-domain", action="store_true", help="pin the choices outside BLEU's domain")
    group.addoption(
        "--bleu-references", choices=REFERENCE_KINDS, default=None, help="references per segment it takes"
    )


def _judged(config: pytest.Config) -> list[Check] | None:
    """Run the target once per session (None when the plugin was not asked for)."""
    if _KEY in config.stash:
        return config.stash[_KEY]
    target, command = config.getoption("--bleu-target"), config.getoption("--bleu-command")
    if target is None and command is None:
        return None
    if target is not None and command is not None:
        raise pytest.UsageError("give one of --bleu-target and --bleu-command (spec CONF-RUNNER)")
    examples, timeout = config.getoption("--bleu-examples"), config.getoption("--bleu-timeout")
    if examples < 1 or timeout <= 0:
        raise pytest.UsageError("--bleu-examples must be >= 1 and --bleu-timeout > 0 (spec CONF-RUNNER)")
    from conformance.runner.expectation import Expectation  # noqa: PLC0415
    from conformance.runner.run import CommandError, RunSettings, command_argv, run_target  # noqa: PLC0415

    if target is not None:
        spec, argv = target, python_command(target, config.getoption("--bleu-input"))
    else:
        try:
            spec, argv = command, command_argv(command)
        except CommandError as error:
            raise pytest.UsageError(f"--bleu-command: {error}") from None
    try:
        expectation = Expectation.parse(
            config.getoption("--bleu-expect"),
            config.getoption("--bleu-accept"),
            strict_domain=config.getoption("--bleu-strict-domain"),
        )
    except BleuError as error:
        raise pytest.UsageError(f"--bleu-expect/--bleu-accept: {error}") from None
    settings = RunSettings(
        examples=examples,
        seed=config.getoption("--bleu-seed"),
        timeout=timeout,
        declared_scale=config.getoption("--bleu-scale"),
        declared_references=config.getoption("--bleu-references"),
        expectation=expectation,
    )
    report = run_target(spec, argv, settings)
    if not report.available:
        raise pytest.UsageError(f"{spec}: {report.unavailable} (spec CONF-RUNNER)")
    config.stash[_KEY] = report.checks
    config.stash[_VERDICT] = report.verdict
    return report.checks


class CheckFailedError(Exception):
    """A failed or explained check, shown without a Python traceback."""


class CheckItem(pytest.Item):
    """One check of the conformance runner as a test."""

    def __init__(self, *, check: Check, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.check = check
        self.user_properties.append(("spec_ids", ", ".join(check.spec_ids)))

    def runtest(self) -> None:
        """Pass, skip (n/a) or fail as the runner judged."""
        if self.check.status == "n/a":
            pytest.skip(f"{self.check.id}: {self.check.detail}")
        if self.check.status != "pass":
            from conformance.runner.report import describe  # noqa: PLC0415

            raise CheckFailedError("\n".join([self.check.title, *describe(self.check)]))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The check's own report instead of a traceback into the plugin."""
        if isinstance(excinfo.value, CheckFailedError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        """Where the test comes from, in pytest's summary."""
        return "bleu", None, f"bleu::{self.check.id}"


class VerdictItem(pytest.Item):
    """The verdict against the expected BLEU as a test (spec CONF-VERDICT): conformant passes."""

    def __init__(self, *, verdict: Verdict | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.verdict = verdict

    def runtest(self) -> None:
        """Pass when conformant; otherwise fail with the headline (the axes that differ, or the faults)
        and, for a not-conformant target, the diagnosis (spec CONF-DIAGNOSIS: which known bug it has,
        or that no known fault explains every answer)."""
        if self.verdict is None:
            raise CheckFailedError("no verdict: the runner could not place the target (spec CONF-VERDICT)")
        if self.verdict.level != "conformant":
            said = [] if self.verdict.diagnosis is None else self.verdict.diagnosis.lines()
            raise CheckFailedError("\n".join([self.verdict.headline(), *said]))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        """The verdict instead of a traceback into the plugin."""
        if isinstance(excinfo.value, CheckFailedError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        """Where the test comes from, in pytest's summary."""
        return "bleu", None, "bleu::VERDICT"


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Append one item per check when a BLEU target was given."""
    checks = _judged(config)
    if checks is None:
        return
    items.extend(
        CheckItem.from_parent(session, name=check.id, nodeid=f"bleu::{check.id}", check=check)
        for check in checks
    )
    verdict = config.stash.get(_VERDICT, None)
    items.append(VerdictItem.from_parent(session, name="VERDICT", nodeid="bleu::VERDICT", verdict=verdict))
