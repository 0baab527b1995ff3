"""Running the zoo: each entry's environment made, the runner run on the entry, its report kept
(spec CONF-ZOO).

The runner is run as a user runs it, in a process of its own: ``reference-bleu conform --json``
with the entry's built-in target (the project's environment) or a ``--command`` starting the
harness, or the Node.js adapter, in the entry's environment, and the entry's runner arguments.
Each report is kept in the cache (``reports/NAME.json``) with the entry's digest (a report made
for an entry since changed is stale), the date, the exit status and the seconds it took.
Environments are made first, each once (two at a time), then the entries run ``jobs`` at a time.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from conformance.zoo.entries import Entry
from conformance.zoo.environments import BuildError

#: Seconds for a target's first answer (importing TensorFlow or MindSpore on a busy machine), and for
#: each later answer (a real tool on a corpus of real size, two runs at a time on two busy cores): a
#: verdict must not depend on the machine's load.
STARTUP_TIMEOUT, TIMEOUT = 300, 60
#: The folder of kept reports and the folder each entry runs in, inside the cache.
REPORTS, WORK = "reports", "work"


@dataclass(frozen=True)
class Settings:
    """How the runner is run on each entry: the budget and seed of its generated checks."""

    examples: int = 100
    seed: int = 0
    jobs: int = 2


@dataclass(frozen=True)
class Kept:
    """One entry's kept run."""

    entry: str
    digest: str
    date: str
    seconds: float
    exit: int
    command: list[str]
    report: dict[str, Any] | None
    error: str = ""

    @property
    def target(self) -> dict[str, Any] | None:
        """The entry's target in the runner's report (``None`` when the runner gave no report)."""
        if self.report is None or not self.report.get("targets"):
            return None
        target: dict[str, Any] = self.report["targets"][0]
        return target


def runner_command(entry: Entry, cache: Path, settings: Settings) -> list[str]:
    """The runner's command line for ``entry`` (the runner of this installation)."""
    environment = entry.environment
    if environment.kind == "project":
        target = ["--target", entry.target()]
    elif entry.adapter.endswith(".js"):
        target = ["--command", shlex.join(["node", str(entry.adapter_path)])]
    else:
        served = [environment.python(cache), "-m", "conformance.runner.harness", entry.target()]
        target = ["--command", shlex.join(served)]
    budget = ["--examples", str(settings.examples), "--seed", str(settings.seed)]
    limits = ["--startup-timeout", str(STARTUP_TIMEOUT), "--timeout", str(TIMEOUT)]
    options = [*limits, *budget, *entry.runner_args]
    return [sys.executable, "-m", "conformance.runner.conform", "--json", "--quiet", *target, *options]


def run_entry(entry: Entry, cache: Path, settings: Settings) -> Kept:
    """Run the runner on one entry (its environment must be ready) and keep the report."""
    folder = cache / WORK / entry.name
    folder.mkdir(parents=True, exist_ok=True)  # tools that write files write them here
    command = runner_command(entry, cache, settings)
    variables = dict(os.environ, **entry.environment.variables(cache))
    date = datetime.now(timezone.utc).isoformat(timespec="seconds")
    started = time.monotonic()
    done = subprocess.run(  # noqa: S603 -- our own runner, from an argument list
        command, cwd=folder, env=variables, capture_output=True, text=True, check=False
    )
    seconds = round(time.monotonic() - started, 1)
    try:
        report: dict[str, Any] | None = json.loads(done.stdout)
        error = ""
    except json.JSONDecodeError:
        report, error = None, "\n".join(done.stderr.strip().splitlines()[-10:])
    kept = Kept(entry.name, entry.digest, date, seconds, done.returncode, command, report, error)
    path = cache / REPORTS / f"{entry.name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(kept), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return kept


def kept_run(cache: Path, name: str) -> Kept | None:
    """The kept run of entry ``name``, if any."""
    path = cache / REPORTS / f"{name}.json"
    if not path.exists():
        return None
    return Kept(**json.loads(path.read_text(encoding="utf-8")))


def make_environments(entries: Sequence[Entry], cache: Path, say: Callable[[str], None]) -> dict[str, str]:
    """Make every environment the entries need, two at a time; the ones that failed, with why."""
    needed = {e.environment.name: e.environment for e in entries}
    failed: dict[str, str] = {}

    def make(name: str) -> None:
        try:
            if needed[name].create(cache, say):
                say(f"environment {name} made")
        except BuildError as error:
            failed[name] = str(error)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(make, sorted(needed)))
    return failed


def run(
    entries: Sequence[Entry], cache: Path, settings: Settings, say: Callable[[str], None]
) -> tuple[list[Kept], dict[str, str]]:
    """Make the environments, run every entry whose environment is ready, keep the reports; also the
    environments that could not be made."""
    failed = make_environments(entries, cache, say)
    runnable = [e for e in entries if e.environment.name not in failed]

    def one(entry: Entry) -> Kept:
        kept = run_entry(entry, cache, settings)
        say(f"{entry.name}: ran in {kept.seconds:.1f} s (exit {kept.exit})")
        return kept

    with ThreadPoolExecutor(max(1, settings.jobs)) as pool:
        kept = list(pool.map(one, runnable))
    return kept, failed
