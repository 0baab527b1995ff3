"""Work the tests of one session share: a result is made once, by whichever xdist worker asks first.

A whole runner run (tests/test_conform.py's ``_report``) costs 10 to 25 s of CPU, and several tests
ask for the same run (same arguments, so the same report: test_same_seed_same_report checks that a
run is a function of its arguments). :func:`once` makes each such result once per test session: in
the process, and across the session's xdist workers through a folder they share (pytest's base
temporary folder of the session, set by tests/conftest.py), a file per result under a lock, so a
worker asking for a result another worker is making waits for it instead of making it again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The folder the session's xdist workers share (None: one process, the memory below suffices).
FOLDER: Path | None = None
_MADE: dict[str, str] = {}


def once(key: str, make: Callable[[], Any]) -> Any:
    """``make()``'s JSON value, made once per test session for ``key``; a fresh copy each call."""
    if key not in _MADE:
        _MADE[key] = json.dumps(make()) if FOLDER is None else _shared(FOLDER / "once", key, make)
    return json.loads(_MADE[key])


def _shared(folder: Path, key: str, make: Callable[[], Any]) -> str:
    folder.mkdir(exist_ok=True)
    path = folder / f"{hashlib.sha256(key.encode()).hexdigest()}.json"
    with open(path.with_suffix(".lock"), "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when make() raises
        if path.exists():
            return path.read_text(encoding="utf-8")
        text = json.dumps(make())
        partial = path.with_suffix(f".{os.getpid()}")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        return text
