"""Run background work after the current transaction commits, in the configured way.

TASK_MODE "celery": queue on the Celery broker (production). "thread": an in-process pool, so the
embedded mode needs no worker and requests do not wait. "sync": run in the caller at commit
(tests that want the effect before they assert).
"""

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import close_old_connections, transaction

if TYPE_CHECKING:
    from celery import Task  # untyped: Any to the checker, named for the reader

logger = logging.getLogger(__name__)
_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="jobs")
_beat_stop: threading.Event | None = None  # set to stop the embedded beat
_stop_hooks: list[Callable[[], None]] = []  # apps' own background threads, stopped with the jobs (on_stop)


def _run_in_thread(task: "Task", args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("background job %s failed", task.name)
    finally:
        close_old_connections()


def _publish(task: "Task", **options: Any) -> None:
    """Queue on the broker, or log and move on when it is unreachable: every job queued here
    is also found by a periodic sweep (the webhook outbox), so a lost publish only delays it."""
    try:
        task.apply_async(retry=False, **options)
    except Exception as exc:  # kombu's OperationalError and socket errors alike
        logger.warning("could not queue %s (%s); the periodic sweep will pick it up", task.name, exc)


def enqueue(task: "Task", *args: Any, **kwargs: Any) -> None:
    """Dispatch now, in the configured mode (use enqueue_on_commit inside a transaction)."""
    mode = settings.TASK_MODE
    if mode == "celery":
        _publish(task, args=args, kwargs=kwargs)
    elif mode == "thread":
        _submit(task, args, kwargs)
    else:
        task.apply(args=args, kwargs=kwargs, throw=True)


def enqueue_on_commit(task: "Task", *args: Any, **kwargs: Any) -> None:
    transaction.on_commit(lambda: enqueue(task, *args, **kwargs))


def enqueue_later(task: "Task", delay_seconds: float, *args: Any) -> None:
    """Run `task` in about `delay_seconds` (retries). In "sync" mode nothing is scheduled: the
    periodic sweep (or a test calling it) picks the work up when it is due."""
    mode = settings.TASK_MODE
    if mode == "celery":
        _publish(task, args=args, countdown=delay_seconds)
    elif mode == "thread":
        timer = threading.Timer(delay_seconds, _submit, args=(task, args, {}))
        timer.daemon = True
        timer.start()


def _submit(task: "Task", args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    try:
        _pool.submit(_run_in_thread, task, args, kwargs)
    except RuntimeError:  # the pool was shut down: the process is stopping
        logger.info("not running %s: shutting down (the periodic sweep picks its work up)", task.name)


def on_stop(hook: Callable[[], None]) -> None:
    """Call `hook()` when background work stops: an app registers its own threads here (the
    webhook watchdog, from apps/webhooks/apps.py), so this module imports no app."""
    if hook not in _stop_hooks:
        _stop_hooks.append(hook)


def stop_background_work(timeout: float) -> bool:
    """On shutdown (config/serve.py): stop the embedded beat, let the jobs already queued finish
    and run the apps' stop hooks (on_stop). Whether everything finished within `timeout` seconds; a job
    cut short is redone by its periodic sweep after the restart."""
    if _beat_stop is not None:
        _beat_stop.set()
    pool_stopped = threading.Thread(target=_pool.shutdown, name="jobs-shutdown", daemon=True)
    pool_stopped.start()
    pool_stopped.join(timeout)
    for hook in _stop_hooks:
        hook()
    return not pool_stopped.is_alive()


def start_embedded_beat() -> threading.Event | None:
    """The embedded mode has no Celery beat: run CELERY_BEAT_SCHEDULE on a daemon thread of the
    web process instead (the sweeps are idempotent, so a second web process would be harmless).
    Returns an event that stops the loop when set (so does stop_background_work)."""
    global _beat_stop
    if settings.TASK_MODE != "thread" or getattr(start_embedded_beat, "started", False):
        return None
    # Once per process, kept as an attribute of this function (tests reset it); set through
    # __dict__, which is typed, as a function's own attributes are not.
    start_embedded_beat.__dict__["started"] = True
    from config.celery import app

    app.loader.import_default_modules()  # register every app's tasks.py, as a worker would
    schedule = {entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    stop = _beat_stop = threading.Event()

    def loop() -> None:
        due = dict.fromkeys(schedule, 0.0)
        while not stop.is_set():
            now = time.monotonic()
            for task_name, every in schedule.items():
                if now >= due[task_name]:
                    due[task_name] = now + every
                    _submit(app.tasks[task_name], (), {})
            stop.wait(0.2)

    threading.Thread(target=loop, name="embedded-beat", daemon=True).start()
    return stop
