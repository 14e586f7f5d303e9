"""The vendored browser libraries the dashboard loads (static paths; never a CDN)."""

PUSHER_JS = "panel/vendor/pusher-8.6.0.min.js"  # shared with the owner panel
AGORA_SDK = "vendor/agora-rtc-sdk-ng/AgoraRTC_N-4.24.8.js"  # agora-rtc-sdk-ng 4.24.8 from npm
