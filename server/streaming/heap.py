"""Keep the server's long-lived heap out of the cyclic collector's full passes (`gc.freeze()`, once).

A server process that has made one Run holds about a million tracked objects that live as long as it does:
the embedding stack (torch, transformers, sentence-transformers, imported even when no model loads), the
MeSH vocabulary, the graph. Every full collection walks all of them: 1-2 s on this 2-vCPU machine, all of
it holding the GIL, so the event loop stops and every stream waits. The Run's housekeeping thread
(`agent/search/gc_tuning.py`) does a full collection when a Run ends, so 200 conversations that search at
once stopped the loop again and again: in `python -m evals.bench_sse --workers 2`, loop stalls of 1-7 s,
and the server's CPU per conversation was 271 ms, of which about 150 ms were those collections.

After the first Run this process makes (by then the libraries a Run needs are imported and the tables
loaded), one collection clears what is garbage, and `gc.freeze()` moves everything still alive into the
permanent generation, which later passes skip (CPython's documented remedy: the gc module's `freeze`).
Objects frozen here that die later are still freed by reference counting; only a reference cycle among
them would stay (a bounded, one-time cost, since this happens once per process).
"""

from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger(__name__)

_lock = threading.Lock()
_settled = False


def settle_once() -> bool:
    """Collect, then freeze what survives; only the first call in a process does it. True if it did."""
    global _settled
    with _lock:
        if _settled:
            return False
        _settled = True
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    log.info(
        "froze %d long-lived objects out of the collector's passes in %.2f s",
        gc.get_freeze_count(),
        time.perf_counter() - started,
    )
    return True
