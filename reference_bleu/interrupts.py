"""SIGTERM and SIGHUP end a command as Ctrl-C does: clean-up, one line, 128 + the signal (spec CLI-INPUT).

Python turns SIGINT into :class:`KeyboardInterrupt`, so every ``finally`` runs: ``conform``
kills its targets and everything they started, ``score --jobs`` stops its workers. SIGTERM
(``kill``, a job scheduler, a container stopping) and SIGHUP (a closed terminal) would end the
process at once by default, leaving all of that behind. :func:`signals_interrupt` makes them
raise :class:`Interrupted`, a KeyboardInterrupt, so the same clean-up runs; the command then
exits with 128 + the signal's number, as a shell reports a process the signal killed (130 for
Ctrl-C, 143 for SIGTERM, 129 for SIGHUP). Not a formula: no paper section.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

#: The signals handled as Ctrl-C (POSIX; on Windows only SIGTERM exists, and is never delivered).
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """A SIGTERM or SIGHUP, raised where the main thread was, so that every clean-up runs."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def exit_code(interrupt: KeyboardInterrupt) -> int:
    """128 + the signal that ended the command: 130 for Ctrl-C (SIGINT), 143 for SIGTERM, 129 for SIGHUP."""
    return 128 + (interrupt.signum if isinstance(interrupt, Interrupted) else signal.SIGINT)


@contextmanager
def signals_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Interrupted` in the main thread while the block runs.

    The first one raises; later ones are ignored, so that the clean-up it started (killing a
    target's processes, stopping workers: bounded in time) is not itself cut short. A signal
    the process was started ignoring (SIGHUP under ``nohup``) stays ignored. Outside the main
    thread, where Python cannot install handlers, nothing changes. The previous handlers are
    restored at the end of the block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised = False

    def interrupt(signum: int, _frame: FrameType | None) -> None:
        nonlocal raised
        if not raised:
            raised = True
            raise Interrupted(signum)

    previous = {}
    for number in SIGNALS:
        current = signal.getsignal(number)
        if current is signal.SIG_IGN or sys.platform == "win32":
            continue
        previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


#: Every signal that ends a command by raising in the main thread: Ctrl-C's and :data:`SIGNALS`.
_HELD = (signal.SIGINT, *SIGNALS)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait while the block runs, then arrive (spec CLI-INPUT).

    For a step an exception must not cut in two: a process pool's first ``submit`` starts its
    manager thread, and an interrupt raised inside ``Thread.start`` leaves a thread that was
    never started, which the pool's shutdown then fails to join (a traceback, exit code 1, the
    workers left running). Held, the signal is delivered when the block ends, and the clean-up
    finds a whole pool. Processes forked inside the block inherit the mask: they call
    :func:`signals_released` first. POSIX; elsewhere (and outside the main thread, where no
    interrupt is raised) nothing is held.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def signals_released() -> None:
    """Unblock what :func:`signals_held` blocked, in a process forked while it was held."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
