"""The pipe to a target's process, which no target can block, flood or outlive (spec CONF-ROBUST).

A :class:`Channel` starts a command (an argument list, never a shell) in a session of its own
(``setsid``), so that the whole process group -- the target and anything it forks -- is killed
when the channel closes or restarts. Every write and every read is bounded in time; a line is
bounded in bytes (an over-long line is read to its end and thrown away, never held); bytes are
decoded as UTF-8 by the caller, which names invalid bytes as a fault. Resource limits
(address space, CPU seconds) are applied to the target where the platform has ``setrlimit``.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

#: The default longest answer line, in bytes (a score with statistics takes a few hundred).
MAX_LINE_BYTES = 1 << 20
#: The stderr lines a channel keeps (their last characters), for a crash's report.
STDERR_LINES = 3
#: Seconds between checks that the process is still alive while waiting for an answer.
POLL_SECONDS = 0.25


class ChannelTimeoutError(Exception):
    """No complete exchange within the time allowed (the channel has killed the process group)."""


class ChannelClosedError(Exception):
    """The process exited, or closed its end of a pipe (the channel has killed the process group)."""

    def __init__(self, message: str, code: int | None) -> None:
        super().__init__(message)
        self.code = code


#: Put in the line queue for a line longer than the limit (its bytes are dropped).
OVERLONG = b"\x00overlong"


@dataclass(frozen=True)
class Limits:
    """Resource limits for a target's process (0: none). Applied with ``setrlimit`` where it exists."""

    memory_mb: int = 0
    cpu_seconds: int = 0

    def apply(self) -> None:  # pragma: no cover -- runs in the child, between fork and exec
        import resource  # noqa: PLC0415 -- POSIX only

        if self.memory_mb:
            size = self.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        if self.cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, self.cpu_seconds))


def limits_supported() -> bool:
    """Whether resource limits can be applied here (POSIX ``setrlimit``)."""
    try:
        import resource  # noqa: PLC0415, F401
    except ImportError:
        return False
    return sys.platform != "win32"


class Channel:
    """One running target: bounded, timed line exchange over its stdin and stdout."""

    def __init__(
        self,
        command: list[str],
        env: dict[str, str],
        *,
        max_line_bytes: int = MAX_LINE_BYTES,
        limits: Limits = Limits(),
    ) -> None:
        self.max_line_bytes = max_line_bytes
        self.stderr_tail: list[str] = []
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        self._written: queue.Queue[OSError | None] = queue.Queue()
        preexec = limits.apply if (limits.memory_mb or limits.cpu_seconds) and limits_supported() else None
        self.process = subprocess.Popen(  # noqa: S603 -- an argument list, never a shell
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=sys.platform != "win32",
            preexec_fn=preexec,  # noqa: PLW1509 -- only setrlimit, which is async-signal-safe
        )
        for worker in (self._read_stdout, self._read_stderr, self._write_stdin):
            threading.Thread(target=worker, daemon=True).start()

    # -- the three pipe threads ---------------------------------------------------------------

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        if stream is None:  # pragma: no cover -- Popen was given PIPE
            return
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(self.max_line_bytes + 1):
                if len(line) > self.max_line_bytes and not line.endswith(b"\n"):
                    while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
                        pass  # drop the rest of the over-long line, a piece at a time
                    self._lines.put(OVERLONG)
                    if not rest:
                        break
                    continue
                self._lines.put(line)
        self._lines.put(None)

    def _read_stderr(self) -> None:
        stream, tail = self.process.stderr, self.stderr_tail
        if stream is None:  # pragma: no cover
            return
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(8192):
                tail.append(line.decode("utf-8", errors="replace").rstrip()[-300:])
                del tail[:-STDERR_LINES]

    def _write_stdin(self) -> None:
        stream = self.process.stdin
        while (data := self._writes.get()) is not None:
            try:
                if stream is None:  # pragma: no cover
                    raise OSError("no stdin")
                stream.write(data)
                stream.flush()
                self._written.put(None)
            except (OSError, ValueError) as error:
                self._written.put(error if isinstance(error, OSError) else OSError(str(error)))
                return

    # -- exchange -----------------------------------------------------------------------------

    def exchange(self, data: bytes, wait: float) -> bytes:
        """Send ``data`` and return the next line (or :data:`OVERLONG`), all within ``wait`` seconds."""
        deadline = time.monotonic() + wait
        self._writes.put(data)
        try:
            failed = self._written.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.kill()
            raise ChannelTimeoutError(f"did not read its input within {wait:g} s") from None
        if failed is not None:
            code = self.kill()
            raise ChannelClosedError("the process had closed its input", code)
        return self._next_line(deadline, wait)

    def _next_line(self, deadline: float, wait: float) -> bytes:
        exited_at: float | None = None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                raise ChannelTimeoutError(f"no answer within {wait:g} s")
            try:
                line = self._lines.get(timeout=min(remaining, POLL_SECONDS))
            except queue.Empty:
                if self.process.poll() is None:
                    continue
                # The process is gone but its stdout is still open (a child of it holds it):
                # a short grace for a last line, then it is a crash, not a timeout.
                exited_at = exited_at or time.monotonic()
                if time.monotonic() - exited_at < POLL_SECONDS * 2:
                    continue
                line = None
            if line is None:
                code = self.kill()
                raise ChannelClosedError(f"the process exited with code {code}", code)
            return line

    # -- ending -------------------------------------------------------------------------------

    def kill(self) -> int | None:
        """Kill the process, its group, its session and every descendant; its exit code (None if killed).

        The tree below the target is taken before anything is killed (a child killed first would
        leave its own children to init, out of the tree); the session then finds what left the
        tree and the group (a double fork with ``setpgid``). Rounds repeat until none of them is
        left, so a process forked while the others were being killed is killed too. The pipes
        are not closed here: a reader blocked on a pipe that an escaped process still holds would
        block the close; the daemon threads end at end of file.
        """
        code = self.process.poll()
        pid = self.process.pid
        for _ in range(KILL_ROUNDS):
            doomed = _living({*descendants(pid), *members(pid)})
            if sys.platform != "win32":
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(pid, signal.SIGKILL)
            for other in doomed:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(other, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            self.process.wait()
            _await_death(doomed)
            if not _living(set(members(pid))):
                break
        self._writes.put(None)
        return code

    def close(self, goodbye: bytes, wait: float = 2.0) -> None:
        """Send ``goodbye`` (the stop message), wait ``wait`` seconds for an exit, then kill the group."""
        if self.process.poll() is None:
            self._writes.put(goodbye)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=wait)
        self.kill()


#: How long the runner waits for killed processes to be gone (SIGKILL is delivered when the
#: process next runs, which on a loaded machine is not at once); it returns sooner when they are.
DEATH_GRACE = 10.0
#: Rounds of killing a target's processes: one suffices unless they fork while being killed.
KILL_ROUNDS = 5


@dataclass(frozen=True)
class _Process:
    """A line of the process table: pid, state (``R``, ``S``, ``Z``...), parent, group and session."""

    pid: int
    state: bytes
    parent: int
    group: int
    session: int


def _processes() -> list[_Process]:
    """Every process (Linux ``/proc``; elsewhere none)."""
    table = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                # pid (comm) state ppid pgrp session: comm may hold spaces and ")": split after the last
                fields = stat.read().rsplit(b")", 1)[1].split()
            table.append(_Process(int(entry), fields[0], int(fields[1]), int(fields[2]), int(fields[3])))
        except (OSError, ValueError, IndexError):
            continue
    return table


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (Linux ``/proc``; elsewhere none are known): a snapshot."""
    children: dict[int, list[int]] = {}
    for process in _processes():
        children.setdefault(process.parent, []).append(process.pid)
    found, frontier = [], [pid]
    while frontier:
        below = children.get(frontier.pop(), [])
        found += below
        frontier += below
    return found


def members(leader: int) -> list[int]:
    """The processes of the process group or the session ``leader`` started, however far they were
    reparented (a target is started with ``setsid``: both ids are its pid)."""
    return [p.pid for p in _processes() if leader in (p.group, p.session) and p.pid != leader]


def _living(pids: set[int]) -> set[int]:
    """Those of ``pids`` that still run (not gone, not zombies: dead, only not reaped)."""
    return {p.pid for p in _processes() if p.pid in pids and p.state != b"Z"}


def _await_death(pids: set[int]) -> None:
    """Wait until none of ``pids`` runs any more (gone, or a zombie)."""
    deadline = time.monotonic() + DEATH_GRACE
    while (pids := _living(pids)) and time.monotonic() < deadline:
        time.sleep(0.01)
