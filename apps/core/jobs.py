"""Run background work after the current transaction commits, in the configured way.

TASK_MODE "celery": queue on the Celery broker (production). "thread": an in-process pool, so the
embedded mode needs no worker and requests do not wait. "sync": run in the caller at commit
(tests that want the effect before they assert).
"""

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, transaction

logger = logging.getLogger(__name__)
_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="jobs")


def _run_in_thread(task, args, kwargs) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("background job %s failed", task.name)
    finally:
        close_old_connections()


def enqueue_on_commit(task, *args, **kwargs) -> None:
    def dispatch() -> None:
        mode = settings.TASK_MODE
        if mode == "celery":
            task.apply_async(args=args, kwargs=kwargs)
        elif mode == "thread":
            _pool.submit(_run_in_thread, task, args, kwargs)
        else:
            task.apply(args=args, kwargs=kwargs, throw=True)

    transaction.on_commit(dispatch)
