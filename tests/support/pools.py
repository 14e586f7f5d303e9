"""`idle(pool)`: every job handed to a thread pool so far has finished, shown without waiting a
fixed time (the embedded default's job pool, apps/core/jobs.py)."""

import threading
from concurrent.futures import ThreadPoolExecutor


def idle(pool: ThreadPoolExecutor, timeout: float = 30) -> None:
    """One job per worker thread, all meeting at a barrier: they can all run at once only when no
    worker is busy with an earlier job, and the queue hands jobs out in order, so none is left."""
    workers = pool._max_workers  # the executor has no public name for it
    meet = threading.Barrier(workers)
    futures = [pool.submit(meet.wait, timeout) for _ in range(workers)]
    for future in futures:
        future.result(timeout=timeout)  # a BrokenBarrierError: a worker stayed busy for `timeout`
