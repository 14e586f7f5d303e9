from celery import shared_task

from apps.video.recordings import recordings_purge


@shared_task(name="video.purge_recordings", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def purge_recordings() -> int:
    return recordings_purge()
