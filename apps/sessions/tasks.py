from celery import shared_task
from django.conf import settings

from apps.sessions import services


@shared_task(name="sessions.abandon_stale", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def abandon_stale_sessions() -> int:
    return services.sessions_abandon_stale(older_than_seconds=settings.SESSION_PENDING_TIMEOUT)
