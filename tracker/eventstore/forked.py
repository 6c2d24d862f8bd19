"""An iterator run ahead in a forked child process, its items handed back through a pipe, so
that the parent works on one item while the child makes the next (an import: the child checks
lines, the parent chains and inserts them; see ``tracker.backup.append_lines``).

Forked, not started afresh: the child inherits the iterator as it stands (a generator half way
through a file, its state and all) and every module already imported, so it starts in 4-15 ms
(measured beside the bench's 200,000 lines in memory) where a fresh interpreter spends ~0.45 s
importing the tracker, a third of the ~1.5 s those 200,000 lines take to import on two cores.
Forking has two hazards, both kept out:

- a forked process holds only the thread that forked, with every lock another thread held
  locked for good: so ``can_fork`` says no as soon as the process runs a second thread (a web
  server's workers), and the caller keeps to one process;
- an inherited SQLite (or PostgreSQL) connection must never be used nor closed by the child:
  the child touches nothing but the iterator, freezes what it inherited so its garbage collector
  never finalizes any of it, and leaves by ``os._exit`` (multiprocessing's fork does), running no
  finalizer and no ``atexit`` (multiprocessing flushes the standard streams before it forks, so
  the child's flush as it ends writes nothing twice).

What the iterator raises is raised again in the parent, once every item made before it was
handed over; a child that dies (killed, out of memory) is a ``ChildFailed``, never a hang: its
end of the pipe closes with it.
"""
from __future__ import annotations

import contextlib
import gc
import marshal
import multiprocessing
import os
import pickle
import threading
from typing import Any, Callable, Generic, Iterator, TypeVar

try:
    import fcntl
except ImportError:  # not a Unix: it does not fork either (can_fork)
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")
DONE, RAISED = range(2)
PIPE_BYTES = 1 << 20  # Linux's limit for an unprivileged process (/proc/sys/fs/pipe-max-size)


class ChildFailed(RuntimeError):
    """The child process ended before saying it was done."""


def can_fork() -> bool:
    """Whether forking is safe here and can pay: the platform forks, no other thread runs (a
    thread's locks would stay locked in the child), and the process may run on a second core
    (confined to one, the child would only take turns with it, the handing over for nothing)."""
    return ("fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
            and cores() > 1)


def cores() -> int:
    """How many cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class Ahead(Generic[T]):
    """``items`` iterated in a forked child; iterate this to get them. ``outcome`` is called in
    the child after the last item and its value kept as ``outcome`` here (the state a pass leaves).
    Use as a context manager: leaving it early ends the child.

    Items are plain data (tuples, lists, dicts, str, bytes, numbers, None), handed over by
    ``marshal``: rows of an import dump in 0.21 us each where pickle takes 0.38 (it keeps a memo
    of every string), and load as fast. The outcome and exceptions go by pickle."""

    def __init__(self, items: Iterator[T], outcome: Callable[[], Any] = lambda: None):
        context = multiprocessing.get_context("fork")
        self._reader, writer = context.Pipe(duplex=False)
        _widen(writer.fileno())
        self._process = context.Process(target=_run, args=(items, outcome, writer), daemon=True)
        self._process.start()
        writer.close()  # the child's end only: the pipe reads EOF once the child is gone
        self.outcome: Any = None
        self._ended = False

    def __iter__(self) -> Iterator[T]:
        receive, loads = self._reader.recv_bytes, marshal.loads
        try:
            while item := receive():
                yield loads(item)
            kind, value = pickle.loads(receive())
        except EOFError:
            self._process.join()
            raise ChildFailed(f"the child process ended (exit code {self._process.exitcode}) "
                              "before its work was done") from None
        self._ended = True  # the child's last message: it is leaving
        if kind == DONE:
            self.outcome = value
            return
        raise value

    def __enter__(self) -> Ahead[T]:
        return self

    def __exit__(self, *_exc) -> None:
        self._reader.close()  # a child still writing gets a broken pipe and ends
        if self._ended:
            self._process.join(timeout=5)  # it said all it had to: let it end on its own
        if self._process.is_alive():
            self._process.terminate()  # left early, or stuck
        self._process.join()


def _run(items: Iterator, outcome: Callable[[], Any], writer) -> None:
    """The child: each item, then the outcome, or what was raised instead."""
    gc.freeze()  # nothing inherited is ever collected here (an open connection's finalizer)
    send, dumps = writer.send_bytes, marshal.dumps
    items = iter(items)
    try:
        while True:
            try:
                item = dumps(next(items))
            except StopIteration:
                message = _outcome(outcome)
                break
            except Exception as raised:  # handed to the parent, which raises it
                message = (RAISED, raised)
                break
            send(item)
        send(b"")  # no more items: the outcome follows
        try:
            payload = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        except Exception:  # an exception that does not pickle: its words at least
            payload = pickle.dumps((RAISED, ChildFailed(repr(message[1]))), pickle.HIGHEST_PROTOCOL)
        send(payload)
    except (OSError, KeyboardInterrupt):
        pass  # the parent stopped listening (it failed, or was interrupted too): nobody to tell
    finally:
        writer.close()


def _widen(pipe: int) -> None:
    """Let the pipe hold several items (64 KiB by default, less than one import batch), so that
    the child goes on while this process is busy, instead of waiting for it to read each chunk."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or past the system's limit
        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, PIPE_BYTES)  # type: ignore[union-attr]


def _outcome(outcome: Callable[[], Any]) -> tuple[int, Any]:
    try:
        return DONE, outcome()
    except Exception as raised:
        return RAISED, raised
