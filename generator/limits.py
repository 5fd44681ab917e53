"""Limits deckpress runs under, and work run in a child process within them.

deckpress sets itself a memory limit only around work a variant drives (the simulation of
``check``), and never above the limit it inherited (a CI job's ``ulimit -v``): ``setrlimit``
refuses to raise a hard limit (``ValueError: not allowed to raise maximum limit``), so both the
soft and the hard limit it sets are the lower of the wanted and the inherited one.

Reaching a limit, its own or one it did not choose (memory, CPU time, the wall clock), is
:class:`CouldNotFinish`: not the content's fault, so never a verdict; the CLI prints its one line
and exits :data:`~deckpress.generator.exitcodes.COULD_NOT_FINISH` (5).

A child process that runs out of memory does not always raise ``MemoryError``: a C library may
end it (OpenBLAS, under numpy, calls ``exit(1)``), the dynamic loader may fail to map a module
(``ImportError: failed to map segment``), the kernel may kill it.  :func:`run_in_child` reads all
of these as "could not finish", never as the exit code the child happened to end with.
"""
from __future__ import annotations

import errno
import math
import os
import resource
import signal
import time
import traceback
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

MIB = 1024 * 1024

#: Phrases of the dynamic loader and libc when an allocation or a mapping is refused.
_OUT_OF_MEMORY_TEXT = ("failed to map segment", "cannot allocate memory", "out of memory")


class CouldNotFinish(Exception):
    """A limit deckpress runs under was reached (memory, CPU time, wall clock): not the content's
    fault.  ``str()`` is one line saying which limit and what to change; the CLI puts
    ``could not finish:`` in front and exits 5."""


class ChildFailed(Exception):
    """The work in a child process raised an exception that is not a limit reached: ``str()`` is
    ``Type: message``, :attr:`trace` the last frames of the child's traceback."""

    def __init__(self, message: str, trace: str):
        super().__init__(message)
        self.trace = trace


def inherited_memory_mib() -> int | None:
    """The address-space limit (soft ``RLIMIT_AS``) this process inherited, MiB, rounded down;
    None when there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft // MIB


def limit_memory(wanted_mib: int) -> None:
    """Limit this process's address space to ``wanted_mib`` MiB, or to the inherited limit when
    that is lower: soft and hard limit each the lower of the wanted and the inherited one, so
    ``setrlimit`` is never asked to raise anything.  Irreversible: call it in a child process."""
    wanted = wanted_mib * MIB
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_lower(wanted, soft), _lower(wanted, hard)))


def _lower(wanted: int, inherited: int) -> int:
    return wanted if inherited == resource.RLIM_INFINITY else min(wanted, inherited)


def _either(first: str, second: str | None) -> str:
    return f"{first} or {second}" if second else first


@dataclass(frozen=True)
class Bounds:
    """How a child process's work is bounded and described: ``what`` it is ("the simulation"),
    its wall-clock limit (s) and the option that sets it, its own memory limit (MiB; None: only
    the inherited one) and the option that sets it, how to ask for less work (``"lower --games
    (now 2,000)"``; None: there is no less), and the memory limit the parent inherited (MiB,
    taken when the bounds are made: the child's own limit must not pass for an inherited one)."""

    what: str
    time_limit_s: float
    time_option: str | None = None
    memory_mib: int | None = None
    memory_option: str | None = None
    less_work: str | None = None
    inherited_mib: int | None = field(default_factory=inherited_memory_mib)

    @property
    def limit_mib(self) -> int | None:
        """The memory limit the work runs under, MiB: the lower of its own and the inherited one
        (None: neither)."""
        limits = [m for m in (self.memory_mib, self.inherited_mib) if m is not None]
        return min(limits) if limits else None

    def out_of_memory(self, happened: str = "ran out of memory") -> CouldNotFinish:
        """The work ran out of memory (``happened``: how that showed); the message names the limit
        in MiB, who set it (``ulimit -v`` or :attr:`memory_option`) and what to change."""
        limit = self.limit_mib
        if limit is None:
            where, raise_it = "", "free some memory"
        elif limit == self.inherited_mib:
            where, raise_it = f" under the limit of {limit:,} MiB it inherited (ulimit -v)", "raise that limit (ulimit -v)"
        else:
            where, raise_it = f" under the limit of {limit:,} MiB ({self.memory_option})", f"raise {self.memory_option}"
        return CouldNotFinish(f"{self.what} {happened}{where}: {_either(raise_it, self.less_work)}")

    def out_of_time(self) -> CouldNotFinish:
        """The wall-clock limit was reached."""
        raise_it = f"raise {self.time_option}" if self.time_option else "run it on a less busy machine"
        return CouldNotFinish(f"{self.what} did not finish within its time limit of {self.time_limit_s:g} s on this machine: "
                              f"{_either(raise_it, self.less_work)}")

    def stopped(self, exitcode: int | None) -> CouldNotFinish:
        """The child ended without a result, with ``exitcode`` (negative: the signal that ended it)."""
        if exitcode == -signal.SIGXCPU:
            return CouldNotFinish(f"{self.what} reached the CPU time limit it inherited (ulimit -t): "
                                  f"{_either('raise that limit', self.less_work)}")
        how = f"killed by {signal.Signals(-exitcode).name}" if exitcode is not None and exitcode < 0 else f"exit code {exitcode}"
        return self.out_of_memory(f"stopped without a result ({how}), most likely out of memory")


#: The bounds of deckpress's own process: only what it inherited.
ANYWHERE = Bounds("deckpress", math.inf, less_work="ask for less work (fewer games, fewer variants)")


def limit_reached(exc: BaseException, bounds: Bounds = ANYWHERE) -> CouldNotFinish | None:
    """The limit ``exc`` shows was reached, as :class:`CouldNotFinish` for the work ``bounds``
    describes, or None when ``exc`` is a fault of the work itself.  A limit shows as
    ``MemoryError``; ``OSError`` ENOMEM (or EAGAIN: no process can be started, ``ulimit -u``); an
    ``ImportError`` because a module could not be mapped; a pool whose worker died; a
    :class:`CouldNotFinish` already."""
    if isinstance(exc, CouldNotFinish):
        return exc
    if isinstance(exc, OSError) and exc.errno == errno.EAGAIN:
        return CouldNotFinish(f"{bounds.what} could not start a process under the limit on processes it inherited (ulimit -u): "
                              f"{_either('raise that limit', bounds.less_work)}")
    from concurrent.futures.process import (
        BrokenProcessPool,  # here: every command imports this module, few use a pool
    )

    if isinstance(exc, (MemoryError, BrokenProcessPool)) or isinstance(exc, OSError) and exc.errno == errno.ENOMEM:
        return bounds.out_of_memory()
    if isinstance(exc, ImportError) and any(t in str(exc).lower() for t in _OUT_OF_MEMORY_TEXT):
        return bounds.out_of_memory()
    return None


def run_in_child(target: Callable[..., Any], args: tuple, bounds: Bounds, progress: Callable[[Any], None] | None = None) -> Any:
    """Run ``target(*args)`` in a forked child process, in a process group of its own, under
    ``bounds``; return what it returns (it must pickle).  With ``progress``, ``target`` is called
    as ``target(*args, progress=send)``: each ``send(value)`` in the child calls ``progress(value)``
    here (value: anything that pickles), for a progress bar.

    The child's memory limit is ``bounds.memory_mib`` or the inherited one, whichever is lower
    (:func:`limit_memory`).  At the time limit, or on ``KeyboardInterrupt`` in this process, the
    child's whole process group (its workers too) is killed.

    Raises:
        CouldNotFinish: the time limit was reached, the child ran out of memory (see
            :func:`limit_reached`) or ended without a result (killed, a C library's ``exit``).
        ChildFailed: ``target`` raised another exception (a fault of the work, not of a limit).
        KeyboardInterrupt: Ctrl-C here; the child is killed first.
    """
    import multiprocessing  # here: every command imports this module, few start a child

    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(target, args, bounds, send, progress is not None))
    # Ctrl-C waits (blocked) until the child is started and in a group of its own: one raised in
    # between would leave the child running, unseen by the kill below and joined at exit.
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        child.start()
    except BaseException as exc:  # not started
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
        receive.close()
        if isinstance(exc, OSError):  # fork refused: no memory, or no more processes
            raise limit_reached(exc, bounds) or exc from None
        raise
    finally:
        send.close()
    pid = child.pid
    assert pid is not None  # start() returned: the child has its process id
    with suppress(OSError):  # the child does the same: whichever runs first, the group exists before any kill
        os.setpgid(pid, pid)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)  # a Ctrl-C that came meanwhile is raised here
        outcome = _receive(receive, child, bounds, progress)
    except BaseException:
        _kill_group(pid)
        raise
    finally:
        child.join()
        receive.close()
    return outcome


def _receive(receive, child, bounds: Bounds, progress: Callable[[Any], None] | None) -> Any:
    deadline = time.monotonic() + bounds.time_limit_s
    while True:
        if not receive.poll(max(deadline - time.monotonic(), 0)):
            raise bounds.out_of_time()
        try:
            kind, value, trace = receive.recv()
        except EOFError:
            child.join()
            raise bounds.stopped(child.exitcode) from None
        if kind != "progress":
            break
        if progress is not None:
            progress(value)
    if kind == "limit":
        raise CouldNotFinish(value)
    if kind == "failed":
        raise ChildFailed(value, trace)
    return value


def _child(target: Callable[..., Any], args: tuple, bounds: Bounds, send, with_progress: bool) -> None:
    os.setpgid(0, 0)  # its own process group: a time-out kills its workers too, Ctrl-C at the terminal does not reach it
    _quiet_stderr()
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent around the fork
        if bounds.memory_mib is not None:
            limit_memory(bounds.memory_mib)
        kwargs = {"progress": lambda value: send.send(("progress", value, None))} if with_progress else {}
        send.send(("ok", target(*args, **kwargs), None))
    # Every failure goes back to the parent, classified: a limit reached, or a fault of the work.
    except BaseException as exc:  # noqa: BLE001
        reached = limit_reached(exc, bounds)
        if reached is not None:
            send.send(("limit", str(reached), None))
        else:
            send.send(("failed", f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=5)))


def _quiet_stderr() -> None:
    """Send the child's stderr to ``/dev/null``: what it has to say goes to the parent through the
    pipe, and what a dying child prints (OpenBLAS's "Memory allocation still failed", a bare
    ``MemoryError``) would only add lines to the parent's one-line "could not finish"."""
    with suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)


def _kill_group(pid: int) -> None:
    """Kill the child and its workers (they share its process group)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
