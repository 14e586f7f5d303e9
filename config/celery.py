import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kiosk")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_postrun.connect  # type: ignore[untyped-decorator]  # celery is untyped
def release_connections(sender: Any = None, **kwargs: Any) -> None:
    """After every task (not an eager one): what Django does after every request. With the
    pool (settings.DATABASES) a connection goes back to it, still open, for the next task; one
    that erred and no longer answers is closed. The fixup itself closes nothing until
    CELERY_DB_REUSE_MAX tasks have run (settings.py says why)."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
