"""Start several calls at the same instant against the real database and collect what each
returned: the harness of the race tests. Each call runs on its own thread (so its own database
connection, closed when it ends) and waits at a barrier until all are ready, so the calls meet
in the database rather than one after another."""

import threading
from collections.abc import Callable, Sequence

from django.db import connection


def at_once(calls: Sequence[Callable[[], object]], timeout: float = 30) -> list:
    """Each call's return value, in the calls' order; a call that raised gives its exception
    (the caller asserts on it: a crash must not pass for a lost race). Fails when a call has not
    finished within `timeout` seconds, rather than reporting it as `None`."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=timeout)
            results[index] = calls[index]()
        except Exception as exc:  # handed back: the test says what a crash means
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    stuck = [n for n, thread in enumerate(threads) if thread.is_alive()]
    assert not stuck, f"calls {stuck} still running after {timeout} s"
    return results
