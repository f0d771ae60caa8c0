"""The worker processes of the ingest (documents, alignment) and of the index build
(analysis): their pool and their set-up."""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

#: The collector's thresholds in a worker (CPython's default is 700, 10, 10). A worker holds
#: a large heap that lives for the whole run (lexicons, models, per-token caches) and makes
#: millions of short-lived acyclic objects, freed by reference counting; a document leaves
#: about 80 objects of cyclic garbage. A young collection starts when the tracked objects
#: allocated and not yet freed since the last one pass the first threshold, and then walks all
#: of them: with the default thresholds every 700 (and the whole heap every 100 young
#: collections), 33 ms of collection per 427 ms warm pass of the bundled texts (measured with
#: `gc.callbacks`); at 10 000, once per pass as one document's objects pile up, 9-11 ms; at
#: 100 000, which no bundled document reaches, none in 30 passes (2.7-3.2 % of the pass
#: saved). The output does not depend on it.
THRESHOLDS = (100_000, 50, 100)


#: prctl(2) option: the signal the kernel sends this process when its parent dies.
_PR_SET_PDEATHSIG = 1


def start(parent: int | None = None) -> None:
    """Run once at the start of each worker process (the pools' ``initializer``); `parent`:
    the pid of the process that started the pool (the worker dies with it)."""
    gc.set_threshold(*THRESHOLDS)
    if parent is not None:
        die_with(parent)


def die_with(parent: int) -> None:
    """Have the kernel kill this process when its parent `parent` dies, however it dies
    (``kill -9`` included, where no code of the parent runs): Linux's parent-death signal
    (prctl PR_SET_PDEATHSIG). The signal is sent when the thread that started this process
    ends, so a pool is made by a thread that outlives it (the ingest's main thread). When
    the parent is already gone (it died before this ran), exit at once. Elsewhere a no-op:
    the pool's own shutdown is then all there is."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: the pool's shutdown only
        return
    if os.getppid() != parent:
        os._exit(1)


@contextmanager
def pool(n: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of `n` worker processes, each `start`ed. They are spawned, never forked (the
    parent may hold threads), and die with this process (`die_with`: a killed ingest leaves
    no worker behind, and the pool's resource tracker ends once they are gone). On leaving
    the block the parent does not wait for them to exit: they free their heaps while it goes
    on; after an error or an interrupt, the tasks not started are dropped."""
    import multiprocessing  # (lazy: not every process that imports this starts workers)
    from concurrent.futures import ProcessPoolExecutor

    executor = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=start, initargs=(os.getpid(),))
    try:
        yield executor
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
