"""The zoo's environments: where each real implementation is installed, made by one command and
cached (spec CONF-ZOO).

An environment is the runner's own (``project``: the implementations the project's extras pin,
served as built-in targets), a virtual environment (``venv``: exact pins installed with
``pip install --no-deps``, so that what is installed is what the data says and nothing a resolver
chose), or a Node.js folder (``npm``: exact versions). Each lives in the cache under a name and a
digest of its definition and of the Python that makes it: a changed pin makes a new folder, never
a half-changed old one. A folder becomes usable only when its marker is written, after the last
install step, so an interrupted build is redone; a lock keeps two processes from building the
same folder at once. Entries whose pins agree share one environment, so that conflicting pins
coexist and torch or TensorFlow is installed once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: The kinds of environment (``zoo.schema.json``).
KINDS = ("project", "venv", "npm")
#: The file that marks a finished environment, with what was installed.
MARKER = "zoo-environment.json"
#: The cache's folder when neither ``--cache`` nor the variable below names one.
DEFAULT_CACHE = Path(".zoo")
CACHE_VARIABLE = "REFERENCE_BLEU_ZOO_CACHE"


class BuildError(Exception):
    """An environment could not be made: the failing command and the end of its output."""


@dataclass(frozen=True)
class Environment:
    """One environment of the zoo: its name, kind and exact requirements."""

    name: str
    kind: str
    requirements: tuple[str, ...] = ()
    note: str = ""

    def digest(self) -> str:
        """12 hex digits of the definition and the interpreter that builds it (a venv's Python)."""
        made_by = platform.python_version() if self.kind == "venv" else ""
        text = json.dumps([self.kind, sorted(self.requirements), made_by])
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def folder(self, cache: Path) -> Path:
        return cache / "envs" / f"{self.name}-{self.digest()}"

    def ready(self, cache: Path) -> bool:
        return self.kind == "project" or (self.folder(cache) / MARKER).exists()

    def python(self, cache: Path) -> str:
        """The interpreter that serves a Python entry of this environment."""
        if self.kind == "project":
            return sys.executable
        return str(self.folder(cache) / "bin" / "python")

    def variables(self, cache: Path) -> dict[str, str]:
        """What the target's process needs in its environment (Node's module path for npm)."""
        if self.kind == "npm":
            return {"NODE_PATH": str(self.folder(cache) / "node_modules")}
        return {}

    def commands(self, folder: Path) -> list[list[str]]:
        """The commands that make the environment in ``folder``, in order."""
        if self.kind == "venv":
            pip = [str(folder / "bin" / "python"), "-m", "pip", "install", "--no-deps", "--quiet"]
            return [[sys.executable, "-m", "venv", str(folder)], [*pip, *self.requirements]]
        if self.kind == "npm":
            npm = ["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--no-save"]
            return [[*npm, *self.requirements]]
        return []

    def create(self, cache: Path, say: Callable[[str], None] = lambda _: None) -> bool:
        """Make the environment unless it is ready; True when it was made now. Raises
        :class:`BuildError` with the failing command and its output's end."""
        if self.ready(cache):
            return False
        folder = self.folder(cache)
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(folder.parent / f"{folder.name}.lock", "w", encoding="utf-8") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it: wait, then find it ready
            if self.ready(cache):
                return False
            shutil.rmtree(folder, ignore_errors=True)  # an interrupted build: start again
            folder.mkdir()
            say(f"making the environment {self.name} ({len(self.requirements)} requirements) in {folder}")
            for command in self.commands(folder):
                _run(command)
            marker = {"name": self.name, "kind": self.kind, "requirements": list(self.requirements)}
            (folder / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
        return True


def _run(command: list[str]) -> None:
    environment = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)  # noqa: S603
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BuildError(f"{' '.join(command[:6])} ... exited {done.returncode}:\n{tail}")


def cache_folder(given: str | None) -> Path:
    """The cache: ``--cache``, else ``$REFERENCE_BLEU_ZOO_CACHE``, else ``.zoo`` here."""
    chosen = given or os.environ.get(CACHE_VARIABLE) or str(DEFAULT_CACHE)
    return Path(chosen).expanduser().resolve()
