"""The worker processes of the ingest (documents, alignment) and of the index build
(analysis): their pool and their set-up."""

from __future__ import annotations

import gc
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


def start() -> None:
    """Run once at the start of each worker process (the pools' ``initializer``)."""
    gc.set_threshold(*THRESHOLDS)


@contextmanager
def pool(n: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of `n` worker processes, each `start`ed. They are spawned, never forked (the
    parent may hold threads). On leaving the block the parent does not wait for them to exit:
    they free their heaps while it goes on; after an error or an interrupt, the tasks not
    started are dropped."""
    import multiprocessing  # (lazy: not every process that imports this starts workers)
    from concurrent.futures import ProcessPoolExecutor

    executor = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=start)
    try:
        yield executor
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
