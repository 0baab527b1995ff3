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

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: A Python signal handler.
_Handler = Callable[[int, FrameType | None], None]
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

    with _handled(() if sys.platform == "win32" else SIGNALS, interrupt):
        yield


@contextmanager
def _handled(numbers: Iterable[int], handler: _Handler) -> Iterator[dict[int, Any]]:
    """``handler`` handles each of the signals ``numbers`` while the block runs; the block gets the
    handlers it replaced, which are put back at the end. A signal the process ignores stays
    ignored, and one whose handler Python did not install (``getsignal`` gives None) is left
    alone: it could not be put back."""
    previous: dict[int, Any] = {}
    for number in numbers:
        current = signal.getsignal(number)
        if current is not signal.SIG_IGN and current is not None:
            previous[number] = signal.signal(number, handler)
    try:
        yield previous
    finally:
        for number, replaced in previous.items():
            signal.signal(number, replaced)


#: Every signal that ends a command by raising in the main thread: Ctrl-C's and :data:`SIGNALS`.
_HELD = (signal.SIGINT, *SIGNALS)


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait while the block runs, then take effect (spec CLI-INPUT).

    For a step an exception must not cut in two: a process pool's first ``submit`` starts its
    manager thread, and an interrupt raised inside ``Thread.start`` leaves a thread that was
    never started, which the pool's shutdown then fails to join (a traceback, exit code 1, the
    workers left running). While held, a signal is only recorded; when the block ends the
    handlers are restored and the first signal recorded is handed to its own handler (it raises
    :class:`Interrupted` or KeyboardInterrupt there), or sent again when its action is the
    default one. Outside the main thread, where no handler runs, nothing is held.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def record(signum: int, _frame: FrameType | None) -> None:
        arrived.append(signum)

    previous: dict[int, Any] = {}
    try:
        with _handled(_HELD, record) as previous:
            yield
    finally:
        if arrived:
            handler = previous[arrived[0]]
            if callable(handler):
                handler(arrived[0], None)
            else:  # SIG_DFL: what the signal would have done
                os.kill(os.getpid(), arrived[0])
