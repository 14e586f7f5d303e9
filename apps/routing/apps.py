from django.apps import AppConfig


class RoutingConfig(AppConfig):
    name = "apps.routing"
    label = "routing"
    verbose_name = "Routing"

    def ready(self) -> None:
        from apps.accounts.seats_hook import register_seats_reader
        from apps.routing.capacity import capacity_and_held
        from apps.routing.queue import queue_of
        from apps.routing.routing_settings import owner_capacity
        from apps.sessions.queue_hook import register_queue_reader
        from apps.sessions.seats import register_owner_capacity_reader

        register_queue_reader(queue_of)  # the status body's `queue` (sessions does not import routing)
        register_owner_capacity_reader(owner_capacity)  # C per owner (apps/sessions/seats.py)
        register_seats_reader(capacity_and_held)  # GET /api/user's capacity and sessions_held
