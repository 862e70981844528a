"""Memory housekeeping for bulk work: a Run builds hundreds of thousands of long-lived objects.

CPython's cyclic collector runs a young-generation pass every 700 net allocations and, every so often, a
full pass over every tracked object in the process. A Run allocates a few hundred thousand objects
(parsed records, pydantic models, merged papers) that all live until the Run is saved, and almost none
of them are in reference cycles, so the collector frees nothing while it walks them again and again.
On the 3 × 1,000-record benchmark that walking was over half of the merge (0.36 s of which 0.2 s was
collection) and stretched the parsing of every page.

`relaxed_gc()` raises the thresholds for the duration of bulk work, the remedy mypy applies to its
own bulk phase (`gc.set_threshold(200 * 1000, 30, 30)` in mypy/build.py). Collection still happens,
just two orders of magnitude less often, so garbage cycles (asyncio futures, exception tracebacks)
are still reclaimed and memory stays bounded. Runs may overlap in a server, so the old thresholds are
restored only when the last one ends; everything here is process-wide, as the collector is.

The end of bulk work has its own cost: dropping the last reference to 3,000 parsed records frees them
one by one (~0.1 s), and the collection the restored thresholds then trigger walks everything left
(~0.05 s). Neither changes the result the caller is waiting for, so both run in a housekeeping thread:
`Housekeeping.release()` hands containers over, and when the block ends the thread frees them a record
at a time (so it hands the GIL back between records), collects, and only then restores the thresholds.
`wait_for_housekeeping()` lets a benchmark or a test see that work finish.

`SharedStrings` keeps one copy of each repeated text of a Run's records. A work found by two or three
sources repeats its title, abstract and author names; MeSH headings, qualifiers, publication types,
country codes, ROR ids and institution names repeat across records, and co-authors often list the same
affiliation. Each parsed copy is a separate string; sharing them as pages arrive keeps the Run's peak
memory down (`evals.bench_run --per-source 10000`, README). Strings are immutable, so nothing reading the
records can tell the difference, and the Run's files are the same bytes.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from pydantic import BaseModel

BULK_THRESHOLDS = (200_000, 30, 30)
START_DELAY = 0.05  # seconds the housekeeping thread waits before it starts freeing

_PLAIN = frozenset({str, int, float, bool, type(None)})  # values a shared part may hold, besides lists of str
_lock = threading.Lock()
_active = 0
_saved: tuple[int, int, int] | None = None
_threads: list[threading.Thread] = []


class Housekeeping:
    """What a block of bulk work leaves to be freed after it, off the caller's path."""

    def __init__(self) -> None:
        self._held: list[Any] = []

    def release(self, *containers: dict[Any, Any] | list[Any]) -> None:
        """Empty `containers` now; what they held is freed by the housekeeping thread after the block.

        Only what nothing else references is freed there; the rest simply stays alive as before.
        """
        for container in containers:
            self._held.append(container.copy())
            container.clear()


@contextmanager
def relaxed_gc(thresholds: tuple[int, int, int] = BULK_THRESHOLDS) -> Iterator[Housekeeping]:
    """Collect less often inside the block (nested and concurrent blocks share one setting)."""
    global _active, _saved
    with _lock:
        if _active == 0 and _saved is None:  # not while a housekeeping thread still holds the old ones
            _saved = gc.get_threshold()
        gc.set_threshold(*thresholds)
        _active += 1
    housekeeping = Housekeeping()
    try:
        yield housekeeping
    finally:
        with _lock:
            _active -= 1
            thread = threading.Thread(
                target=_housekeep, args=(housekeeping._held,), name="run-housekeeping", daemon=True
            )
            _threads[:] = [t for t in _threads if t.is_alive()] + [thread]
        housekeeping._held = []
        thread.start()


def wait_for_housekeeping(timeout: float | None = None) -> bool:
    """Wait until every housekeeping thread started so far is done; False if `timeout` ran out first."""
    with _lock:
        threads = list(_threads)
    for thread in threads:
        thread.join(timeout)
    return not any(thread.is_alive() for thread in threads)


def _housekeep(held: list[Any]) -> None:
    global _saved
    # The block has just ended: its thread is returning the Run to a caller that is waiting for it.
    # Started at once, this thread would take the GIL from it for a few switch intervals.
    time.sleep(START_DELAY)
    _free_gradually(held)
    with _lock:
        if _active or _saved is None:  # another block of bulk work began meanwhile: it restores them
            return
    gc.collect()  # the pass the restored thresholds would trigger at once, here instead of in the caller
    with _lock:
        if _active == 0 and _saved is not None:
            gc.set_threshold(*_saved)
            _saved = None


def _free_gradually(pending: list[Any]) -> None:
    """Drop references one object at a time, taking lists and dicts apart first.

    Freeing a 1,000-record list is one long C call that holds the GIL throughout (~20 ms); between
    single records the interpreter can hand the GIL to the thread that just returned the Run.
    """
    while pending:
        item = pending.pop()
        if type(item) is list or type(item) is dict:
            pending.extend(item.values() if type(item) is dict else item)
            item.clear()
        del item


class SharedStrings:
    """One copy of each text the records of a Run repeat (see the module docstring); one per Run.

    A model in a list whose fields are all plain values or lists of strings (an affiliation, a MeSH
    heading, an abstract section) is shared whole when an equal one was seen: nothing changes such parts
    of a record once it is parsed. Such a part is looked up by its values first, and only a new one has
    its strings shared: most parts were seen before, and sharing runs on every page of a Run (on
    3 x 10,000 records 1.5 s of CPU instead of 2.7 s when every string was looked up).

    The executor shares each page in a worker thread, so pages of two sources may be shared at once:
    each lookup is a single dictionary operation, and a race costs at most one part kept twice.
    """

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}
        self._parts: dict[tuple[Any, ...], BaseModel] = {}

    def share(self, models: Iterable[BaseModel]) -> None:
        """Replace, in place, every string of `models` and of the models and lists they hold by the
        first equal string seen. Values are set in the models' field dictionaries: the value is equal,
        so no validation or "fields set" bookkeeping is concerned."""
        for model in models:
            self._share_fields(model.__dict__)

    def _share_fields(self, values: dict[str, Any]) -> None:
        seen = self._seen
        for name, value in values.items():
            kind = type(value)
            if kind is str:
                values[name] = seen.setdefault(value, value)
            elif kind is list:
                for position, item in enumerate(value):
                    if type(item) is str:
                        value[position] = seen.setdefault(item, item)
                    elif isinstance(item, BaseModel):
                        value[position] = self._share_part(item)
            elif kind not in _PLAIN and isinstance(value, BaseModel):
                self._share_fields(value.__dict__)

    def _share_part(self, model: BaseModel) -> BaseModel:
        key = _part_key(model)
        if key is None:  # it holds parts of its own that may differ in ways a key would not see
            self._share_fields(model.__dict__)
            return model
        seen = self._parts.get(key)  # equal strings are equal keys, shared or not
        if seen is not None:
            return seen  # most parts were seen before: their strings need no sharing
        self._share_fields(model.__dict__)
        self._parts[_part_key(model) or key] = model  # the key of its shared strings: no copies kept
        return model


def _part_key(model: BaseModel) -> tuple[Any, ...] | None:
    """What makes two parts equal: their type, fields set and values; None for a part holding parts."""
    values: list[Any] = []
    for field in model.__dict__.values():
        kind = type(field)
        if kind in _PLAIN:
            values.append(field)
        elif kind is list and all(type(item) is str for item in field):
            values.append(tuple(field))
        else:
            return None
    return (type(model), frozenset(model.model_fields_set), tuple(values))
