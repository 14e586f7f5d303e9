"""Realtime's HTTP surface: channel authorisation (/broadcasting/auth, the kiosk's) and the
Pusher HTTP API (/apps/{id}/...). It sits above the domain apps whose rules it asks (who may join
which channel); apps/realtime, the WebSocket server and broadcast API below them, imports none."""
