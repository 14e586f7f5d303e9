"""The web process gives the memory it freed back to the system every MEMORY_TRIM_SECONDS
(config/memory_trim.py: a WebSocket churn grew it without end otherwise; bench/soak.py shows the
process flat with it)."""

import gc
from pathlib import Path

from apps.realtime import consumer
from config import memory_trim, serve


def rss_mb() -> float:
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def test_memory_freed_but_kept_by_the_allocator_goes_back_to_the_system():
    assert memory_trim.trim_available()  # glibc, as on every machine the service runs on here
    memory_trim.return_freed_memory()
    before = rss_mb()
    # Buffers (larger than Python's own small-object allocator takes), most freed and a few kept
    # spread through them: what a churn of connections leaves behind. The allocator cannot shrink
    # its heap past the ones still alive, so it keeps the free memory between them.
    blocks = [bytearray(2_000) for _ in range(30_000)]
    kept = blocks[::101]
    del blocks
    held = rss_mb()
    assert held - before > 20, "the allocations did not raise the resident memory (nothing to measure)"

    assert memory_trim.return_freed_memory() is True
    assert rss_mb() < held - 20
    assert len(kept) == 298


def test_the_web_process_trims_on_its_interval_and_collects_after_many_closed_connections(settings, monkeypatch):
    calls, scheduled, closed = [], [], [0]
    monkeypatch.setattr(memory_trim, "give_back", lambda *, collect: calls.append(collect))
    monkeypatch.setattr(consumer, "closed_connection_count", lambda: closed[0])
    monkeypatch.setattr(serve.reactor, "callLater", lambda delay, function: scheduled.append((delay, function)))
    server = serve.DrainingServer.__new__(serve.DrainingServer)  # the method needs no server state
    settings.MEMORY_TRIM_SECONDS, settings.MEMORY_COLLECT_AFTER_CLOSED = 0.5, 100

    server.trim_memory()
    assert calls == [False] and scheduled == [(0.5, server.trim_memory)]
    closed[0] = 99
    scheduled.pop()[1]()  # the next turn trims again and schedules the one after
    assert calls == [False, False] and len(scheduled) == 1
    closed[0] = 100
    scheduled.pop()[1]()
    assert calls == [False, False, True]  # a full collection: 100 closed since the last
    closed[0] = 150
    scheduled.pop()[1]()
    assert calls == [False, False, True, False]  # counted from that collection

    settings.MEMORY_TRIM_SECONDS = 0
    scheduled.clear()
    server.trim_memory()
    assert len(calls) == 4 and scheduled == []


def test_the_collection_frees_objects_kept_only_by_their_cycles():
    """What the collection is for: a closed connection's objects, in a reference cycle."""

    class Connection:
        def __init__(self):
            self.protocol = {"transport": self}  # as daphne's protocol and Twisted's connection

    gc.disable()  # no automatic collection in between: only give_back's
    try:
        for _ in range(1000):
            Connection()
        assert sum(type(o) is Connection for o in gc.get_objects()) == 1000  # kept by their cycles
        memory_trim.give_back(collect=True)
        assert not any(type(o) is Connection for o in gc.get_objects())
    finally:
        gc.enable()
