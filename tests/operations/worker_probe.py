"""Settings and one task for the prefork worker of tests/operations/test_worker_connections.py:
the test workers' settings (a queue of their own) plus a task that says which PostgreSQL backend served it."""

from celery import shared_task

from tests.support.worker_settings import *  # noqa: F403

CELERY_IMPORTS = ("tests.operations.worker_probe",)


@shared_task(name="tests.worker_probe", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def worker_probe(key: str) -> None:
    """Push the pid of the PostgreSQL backend that served this task onto the Redis list `key`."""
    from django.core.cache import cache
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    cache.client.rpush(key, pid)  # type: ignore[attr-defined]  # FailOpenRedisCache's client
