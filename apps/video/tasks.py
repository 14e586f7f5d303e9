from celery import shared_task

from apps.video.recordings import recordings_purge


@shared_task(name="video.purge_recordings", ignore_result=True)
def purge_recordings() -> int:
    return recordings_purge()
