"""Settings, read from the environment.

Two run modes share this file (DESIGN.md section 1):
- embedded (no DATABASE_URL / REDIS_URL): SQLite under var/, in-memory channel layer,
  local-memory cache, background jobs on an in-process thread pool;
- production stack (DATABASE_URL / REDIS_URL set): PostgreSQL, Redis cache, channels-redis,
  Celery on Redis.
APP_ENV (local, test or production) picks the rules. Without it a run is local on the embedded
default and production as soon as DATABASE_URL or REDIS_URL is set. Production refuses to
start without real secrets, ALLOWED_HOSTS and METRICS_TOKEN, turns on the TLS rules, refuses
private webhook targets and writes no file at import; local and test generate their secrets.
"""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from typing import TypedDict

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config.local_secrets import load_or_create, private_dir, private_file

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
# Secure by default: the permissive rules (generated secrets, private webhook targets, plain
# HTTP) need an explicit APP_ENV=local or test once infrastructure is configured.
APP_ENVS = ("local", "test", "production")
_app_env = os.environ.get("APP_ENV", "").strip()
APP_ENV_INFERRED = not _app_env
APP_ENV = _app_env or ("production" if DATABASE_URL or REDIS_URL else "local")
if APP_ENV not in APP_ENVS:
    raise ImproperlyConfigured(f"APP_ENV={APP_ENV!r} is not one of: {', '.join(APP_ENVS)}")
PRODUCTION = APP_ENV == "production"

_SECRET_NAMES = (
    "SECRET_KEY",
    "REALTIME_APP_ID",
    "REALTIME_APP_KEY",
    "REALTIME_APP_SECRET",
    "VIDEO_APP_ID",
    "VIDEO_APP_CERTIFICATE",
    "WEBHOOK_SECRET_KEYS",
)
if PRODUCTION:
    # Production also needs its host names and a /metrics token: nothing open by omission.
    _missing = [
        name for name in (*_SECRET_NAMES, "ALLOWED_HOSTS", "METRICS_TOKEN") if not os.environ.get(name, "").strip()
    ]
    if _missing:
        _why = (
            "DATABASE_URL/REDIS_URL is set without APP_ENV, so this is" if APP_ENV_INFERRED else "APP_ENV=production is"
        )
        raise ImproperlyConfigured(
            f"{_why} a production run, which needs these variables: {', '.join(_missing)}. "
            "Set them, or set APP_ENV=local (a development server) or APP_ENV=test (the test suite)."
        )
    _secrets = {name: os.environ[name] for name in _SECRET_NAMES}
else:
    private_dir(VAR_DIR)
    _secrets = load_or_create(VAR_DIR / "secrets.json")
    _secrets.update({name: os.environ[name] for name in _SECRET_NAMES if os.environ.get(name)})

SECRET_KEY = _secrets["SECRET_KEY"]
REALTIME_APP_ID = _secrets["REALTIME_APP_ID"]
REALTIME_APP_KEY = _secrets["REALTIME_APP_KEY"]
REALTIME_APP_SECRET = _secrets["REALTIME_APP_SECRET"]
VIDEO_APP_ID = _secrets["VIDEO_APP_ID"]
VIDEO_APP_CERTIFICATE = _secrets["VIDEO_APP_CERTIFICATE"]
# Fernet keys for webhook signing secrets at rest, comma-separated: all read, the first writes
# (apps/core/secret_box.py; rotation in docs/webhooks.md).
WEBHOOK_SECRET_KEYS = [key.strip() for key in _secrets["WEBHOOK_SECRET_KEYS"].split(",") if key.strip()]

PROCESSOR_SECRET_KEY = os.environ.get("PROCESSOR_SECRET_KEY", "")
PROCESSOR_API_BASE = os.environ.get("PROCESSOR_API_BASE", "")
PROCESSOR_WEBHOOK_SECRET = os.environ.get("PROCESSOR_WEBHOOK_SECRET", "")
PROCESSOR_CONNECT_WEBHOOK_SECRET = os.environ.get("PROCESSOR_CONNECT_WEBHOOK_SECRET", "")
PROCESSOR_PUBLISHABLE_KEY = os.environ.get("PROCESSOR_PUBLISHABLE_KEY", "")  # the kiosk app's browser library
# Processor events signed more than this many seconds ahead of our clock are refused (the library
# refuses those older than its 300 s tolerance).
PROCESSOR_WEBHOOK_FUTURE_TOLERANCE = int(os.environ.get("PROCESSOR_WEBHOOK_FUTURE_TOLERANCE", "30"))
# The demo processor (apps/demo_processor, docs/decisions/payments.md "Demo processor"): a local or test run
# without a processor key pays through the project's own /demo-processor/ with the real `stripe`
# library (dispatched in-process, apps/demo_processor/in_process.py), with keys derived from
# SECRET_KEY. No money moves. Production never uses it.
# The demo printer (apps/demo/demo_printer.py): seed_demo's printers print at DEMO_PRINTER_ADDRESS;
# left at its default, `make run` (the local mode) listens there itself and shows the tickets at
# /demo-printer/. Pointed at another raw TCP listener, the same bytes go there.
DEMO_PRINTER_DEFAULT_ADDRESS = "127.0.0.1:9100"
DEMO_PRINTER_ADDRESS = os.environ.get("DEMO_PRINTER_ADDRESS", "").strip() or DEMO_PRINTER_DEFAULT_ADDRESS
DEMO_PRINTER_SERVED = APP_ENV == "local" and DEMO_PRINTER_ADDRESS == DEMO_PRINTER_DEFAULT_ADDRESS

DEMO_PROCESSOR_PATH = "/demo-processor"
DEMO_PROCESSOR = not PRODUCTION and not PROCESSOR_SECRET_KEY and env_bool("DEMO_PROCESSOR", True)
if DEMO_PROCESSOR:
    import hashlib

    def _demo_secret(purpose: str) -> str:
        return hashlib.sha256(f"{_secrets['SECRET_KEY']}:demo-processor:{purpose}".encode()).hexdigest()[:32]

    PROCESSOR_SECRET_KEY = "sk_test_demo_" + _demo_secret("api")
    PROCESSOR_PUBLISHABLE_KEY = "pk_test_demo"
    # Not an address: apps/demo_processor/in_process.py hands the library's requests for this
    # host to the demo processor's views in the same process, whatever port (if any) it serves.
    PROCESSOR_API_BASE = PROCESSOR_API_BASE or f"http://demo-processor.invalid{DEMO_PROCESSOR_PATH}"
    PROCESSOR_CONNECT_WEBHOOK_SECRET = PROCESSOR_CONNECT_WEBHOOK_SECRET or "whsec_demo_" + _demo_secret("connect")
if PRODUCTION and DEMO_PROCESSOR_PATH in PROCESSOR_API_BASE:
    raise ImproperlyConfigured(
        "PROCESSOR_API_BASE points at the demo processor, which moves no money: production needs the real "
        "processor (unset PROCESSOR_API_BASE and set PROCESSOR_SECRET_KEY)."
    )
# Each processor request gives up after PROCESSOR_TIMEOUT seconds and is retried at most
# PROCESSOR_MAX_NETWORK_RETRIES times (same idempotency key); the library's defaults (80 s, 2)
# would hold a request thread and a database connection for minutes.
PROCESSOR_TIMEOUT = float(os.environ.get("PROCESSOR_TIMEOUT", "10"))
PROCESSOR_MAX_NETWORK_RETRIES = int(os.environ.get("PROCESSOR_MAX_NETWORK_RETRIES", "1"))
# Taking a video session's payment back holds its agent's video seat from the check to the
# record step (apps/sessions/seats.py): at most this long, the processor's longest answer.
PAYMENT_TAKE_BACK_HOLD_SECONDS = float(
    os.environ.get("PAYMENT_TAKE_BACK_HOLD_SECONDS", str(PROCESSOR_TIMEOUT * (PROCESSOR_MAX_NETWORK_RETRIES + 1) + 5))
)
# Card readers: the country of each business's reader location at the processor (its address
# must name one; the business's own address is free text).
CARD_READER_LOCATION_COUNTRY = os.environ.get("CARD_READER_LOCATION_COUNTRY", "US")

DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver")
REQUIRE_TLS = env_bool("REQUIRE_TLS", PRODUCTION)
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", not PRODUCTION)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("TRUST_PROXY", PRODUCTION) else None
# The load balancers in front of the web processes, as addresses or networks (comma-separated,
# e.g. "10.0.0.5,10.1.0.0/16"): only a peer among them may set the caller's address with
# X-Forwarded-For; any other peer is the caller itself. Empty (the default): every peer is the caller.
# Every rate limit keys on apps.api.inputs.client_ip (docs/decisions/api.md, docs/deploy.md).
if os.environ.get("TRUSTED_PROXY_COUNT", "").strip() not in ("", "0"):
    raise ImproperlyConfigured(
        "TRUSTED_PROXY_COUNT is gone: a count let a client that reaches a web process directly choose its own "
        "address. Set TRUSTED_PROXIES to your load balancers' addresses or networks instead (docs/deploy.md)."
    )
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES")
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(f"TRUSTED_PROXIES: {_proxy!r} is not an IP address or network") from None

# Django's generic classes subscriptable at run time, as their types are (`ModelAdmin[Order]`).
django_stubs_ext.monkeypatch()

INSTALLED_APPS = [
    "daphne",
    "apps.accounts.admin_config.LimitedAdminConfig",  # django.contrib.admin with sign-in limits
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "csp",
    "channels",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "oauth2_provider",
    "apps.core",
    "apps.api",
    "apps.accounts",
    "apps.kiosks",
    "apps.sessions",
    "apps.routing",
    "apps.menu",
    "apps.orders",
    "apps.webhooks",
    "apps.billing",
    "apps.printing",
    "apps.demo_processor",
    "apps.video",
    "apps.chat",
    "apps.realtime",
    "apps.realtime_http",  # realtime's HTTP surface: registers the call channel's member rule
    "apps.displays",
    "apps.panel",
    "apps.kiosk_app",  # the kiosk's catalogue view and its makemessages (no models)
    "apps.owner_api",
    "apps.demo",
    "apps.reports",
]

MIDDLEWARE = [
    "apps.api.middleware.RequestIdMiddleware",
    "apps.api.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.api.csp.PathPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "apps.api.middleware.NulByteMiddleware",  # after CORS: the kiosk app can read its refusals
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
# What every domain event causes (apps.core.events.emit reads it; core imports no other app).
EVENT_SUBSCRIBERS = "config.event_subscribers.SUBSCRIBERS"
ASGI_APPLICATION = "config.asgi.application"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: PostgreSQL through psycopg 3 when DATABASE_URL is set, else a SQLite file.
if DATABASE_URL:
    # daphne runs each request's sync code on a thread of its own, so per-thread persistent
    # connections would be opened per request (and linger); a process-wide pool lends them out.
    # Health checks: the pool runs psycopg_pool's check (an empty query) on a connection before
    # lending it, so a restarted server or a dropped connection is survived (docs/decisions/operations.md).
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_health_checks=True)}
    # An outage fails fast: a request waits at most DATABASE_POOL_TIMEOUT for a pooled connection
    # and a new connection at most DATABASE_CONNECT_TIMEOUT, then answers 503, so kiosks and load
    # balancers are not held.
    DATABASES["default"]["OPTIONS"] = {
        "pool": {
            "min_size": 1,
            "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "10")),
            "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "2")),
        },
        "connect_timeout": int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "2")),
    }
    # Behind PgBouncer in transaction pooling mode (deploy/pgbouncer.ini) a server connection
    # changes hands between transactions: no server-side cursors, and no prepared statements
    # (Django's psycopg 3 backend prepares none unless OPTIONS asks; said here so no one does).
    DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "")
    if DATABASE_POOLER not in ("", "pgbouncer"):
        raise ImproperlyConfigured("DATABASE_POOLER must be empty or pgbouncer")
    if DATABASE_POOLER == "pgbouncer":
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None
else:
    if not PRODUCTION:  # production writes nothing at import: its VAR_DIR must already exist
        private_file(VAR_DIR / "db.sqlite3")  # 0600: SQLite gives its journal and WAL files the same mode
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache (throttles, heartbeat coalescing, login failure counters) and real-time layer.
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "kiosk")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "apps.core.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    # redis-py 8 defaults to a 5 s socket timeout and 100 connections per pool. channels-redis
    # blocks 5 s in BZPOPMIN, so the read would time out and kill a WebSocket consumer; and a
    # burst of group joins needs more than 100 connections at once. All the WebSocket consumers of
    # a process share one inbox, whose default capacity (100) would drop a fan-out to 500 agents.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15, "max_connections": 10000}],
                "prefix": f"{CACHE_KEY_PREFIX}:asgi",
                "capacity": 10000,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Pusher-protocol server (apps/realtime): pusher-js pings after activity_timeout seconds of
# silence; we ping a client silent that long and close it (4201) when no pong comes in time.
REALTIME_ACTIVITY_TIMEOUT = int(os.environ.get("REALTIME_ACTIVITY_TIMEOUT", "120"))
REALTIME_PONG_TIMEOUT = int(os.environ.get("REALTIME_PONG_TIMEOUT", "30"))
REALTIME_MAX_CONNECTIONS = int(os.environ.get("REALTIME_MAX_CONNECTIONS", "10000"))  # per web process
# One client cannot take every slot: at most this many connections per client address and process
# (4100: pusher-js backs off and retries), and at most this many for the app across every process
# (4004, Pusher's "over connection quota"; counted through Redis, refreshed every fan-out check).
REALTIME_MAX_CONNECTIONS_PER_ADDRESS = int(os.environ.get("REALTIME_MAX_CONNECTIONS_PER_ADDRESS", "200"))
REALTIME_MAX_APP_CONNECTIONS = int(os.environ.get("REALTIME_MAX_APP_CONNECTIONS", "100000"))
# One connection holds at most this many subscriptions; the next is refused with 4303 (the
# connection stays). Our apps hold 1 or 2 each (docs/realtime.md "Limits and refusals").
REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION = int(os.environ.get("REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION", "100"))
# With Redis each web process renews a lease this long every third of it; the presence members of
# a process that died unannounced (SIGKILL) are removed within lease + a third (20 s).
REALTIME_PROCESS_LEASE_SECONDS = float(os.environ.get("REALTIME_PROCESS_LEASE_SECONDS", "15"))
# Each web process joins the fan-out group again this often (a Redis restart or failover loses the
# membership silently); when it cannot for REALTIME_UNDELIVERABLE_SECONDS it closes its WebSockets
# with 4200 and refuses new ones with 4100 until it can (apps/realtime/hub.py).
# A presence member whose last connection leaves stays listed this long; back within it, it was
# never gone (no member_removed): a deploy's drain moves kiosks without the owner's list dropping.
REALTIME_PRESENCE_GRACE_SECONDS = float(os.environ.get("REALTIME_PRESENCE_GRACE_SECONDS", "3"))
REALTIME_FANOUT_CHECK_SECONDS = float(os.environ.get("REALTIME_FANOUT_CHECK_SECONDS", "1"))
REALTIME_UNDELIVERABLE_SECONDS = float(os.environ.get("REALTIME_UNDELIVERABLE_SECONDS", "5"))
# A cache channel (cache-, private-cache-, presence-cache-) keeps its last server event this long, as
# Pusher does (30 min), in the cache (Redis: shared by every web process).
REALTIME_CACHE_CHANNEL_SECONDS = float(os.environ.get("REALTIME_CACHE_CHANNEL_SECONDS", "1800"))

# On SIGTERM the web process (config/serve.py) finishes its requests, closes WebSockets with 4200
# and stops its background work, and exits within this many seconds (keep it below the
# orchestrator's kill timeout, e.g. Kubernetes' terminationGracePeriodSeconds of 30).
SHUTDOWN_GRACE_SECONDS = float(os.environ.get("SHUTDOWN_GRACE_SECONDS", "10"))
# The web process gives the memory it freed back to the system this often (config/memory_trim.py),
# with a full collection first once this many WebSockets have closed since the last one; 0: never.
MEMORY_TRIM_SECONDS = float(os.environ.get("MEMORY_TRIM_SECONDS", "10"))
MEMORY_COLLECT_AFTER_CLOSED = int(os.environ.get("MEMORY_COLLECT_AFTER_CLOSED", "1000"))

# Background work. "celery": a Celery worker on Redis; "thread": in-process thread pool
# (embedded mode); "sync": run at commit time in the caller (tests).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
# A request that queues work must not hang while Redis is down: publishing gives up fast (the
# outbox sweep sends what was committed once Redis is back).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
# Celery's Django fixup closes the database connections around every task, and in a prefork
# worker also closes Django's connection pool (celery/fixups/django.py, `_close_database`; celery
# issue 10554): a fresh PostgreSQL connection for every job. Its documented escape, DB_REUSE_MAX,
# lets it close them only every this many tasks; config/celery.py then hands each task's
# connection back to the process's pool after the task, as Django does after every request.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "10000"))
TASK_MODE = os.environ.get("TASK_MODE", "celery" if REDIS_URL else "thread")

# Auth and sessions (agent API cookie session, spec section 5).
AUTH_USER_MODEL = "accounts.User"
# Sign-ins record the first; the second still serves sessions signed in before it existed.
AUTHENTICATION_BACKENDS = ["apps.accounts.backends.AccountsBackend", "django.contrib.auth.backends.ModelBackend"]
SESSION_ENGINE = "apps.accounts.session_store"  # cached_db, keyed by the SHA-256 of the cookie
SESSION_COOKIE_NAME = "app_session"
SESSION_COOKIE_AGE = int(timedelta(days=30).total_seconds())
SESSION_SAVE_EVERY_REQUEST = True  # any request resets the 30-day inactivity clock
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
XSRF_COOKIE_NAME = "XSRF-TOKEN"
XSRF_HEADER_NAME = "HTTP_X_XSRF_TOKEN"
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
TWO_FACTOR_CHALLENGE_TTL = timedelta(minutes=5)
TWO_FACTOR_MAX_ATTEMPTS = 5
LOGIN_FAILURE_LIMIT = 5  # failed logins per email+IP per window, then 429
LOGIN_FAILURE_WINDOW = 60
# Failed sign-ins per client IP, whatever the email (password spraying), then 429.
LOGIN_IP_FAILURE_LIMIT = int(os.environ.get("LOGIN_IP_FAILURE_LIMIT", "20"))
LOGIN_IP_FAILURE_WINDOW = int(os.environ.get("LOGIN_IP_FAILURE_WINDOW", "600"))
# Failed sign-ins per account from any address, then the account's sign-in is locked for the rest
# of the window (apps/accounts/login_throttle.py; the owner sees and may lift it on Agents).
LOGIN_ACCOUNT_FAILURE_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_LIMIT", "10"))
LOGIN_ACCOUNT_FAILURE_WINDOW = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_WINDOW", "900"))
# Wrong pairing codes from every address, then pairing pauses for the rest of the window; wrong
# codes that hit an owner's used or expired code, then that owner's pairing pauses
# (apps/kiosks/pairing_guard.py).
PAIRING_FAILURE_LIMIT = int(os.environ.get("PAIRING_FAILURE_LIMIT", "30"))
PAIRING_FAILURE_WINDOW = int(os.environ.get("PAIRING_FAILURE_WINDOW", "60"))
PAIRING_OWNER_FAILURE_LIMIT = int(os.environ.get("PAIRING_OWNER_FAILURE_LIMIT", "5"))
PAIRING_OWNER_FAILURE_WINDOW = int(os.environ.get("PAIRING_OWNER_FAILURE_WINDOW", "900"))
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/panel/login"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 3  # a reset link works for three hours

# Kiosk web app origins allowed to call the kiosk API cross-origin.
CORS_ALLOWED_ORIGINS = env_list("KIOSK_APP_ORIGINS", "" if PRODUCTION else "http://localhost:5173")
CORS_URLS_REGEX = r"^/(api/public|demo-processor/v1/payment_intents/[^/]+/confirm)(/.*)?$"  # + the demo card form
CORS_ALLOW_HEADERS = ("accept", "content-type", "x-device-id", "x-device-token", "x-request-id")
CORS_EXPOSE_HEADERS = ("x-request-id", "retry-after")

# Request limits on every API surface (docs/decisions/api.md "API surfaces"): a body over
# DATA_UPLOAD_MAX_MEMORY_SIZE is 413 PAYLOAD_TOO_LARGE, JSON nested deeper than API_JSON_MAX_DEPTH
# is 400 MALFORMED_REQUEST.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(2_621_440)))
API_JSON_MAX_DEPTH = int(os.environ.get("API_JSON_MAX_DEPTH", "32"))

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["apps.api.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "apps.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.SurfaceAutoSchema",
    "NUM_PROXIES": 0,  # DRF's own get_ident reads the peer only; every throttle of ours uses client_ip
    "DEFAULT_THROTTLE_RATES": {
        "kiosk": os.environ.get("THROTTLE_KIOSK", "600/min"),
        "pairing": os.environ.get("THROTTLE_PAIRING", "10/min"),
        "agent": os.environ.get("THROTTLE_AGENT", "600/min"),
        "display": os.environ.get("THROTTLE_DISPLAY", "600/min"),
        "token_api": os.environ.get("THROTTLE_TOKEN_API", "120/min"),
        "owner_api": os.environ.get("THROTTLE_OWNER_API", "120/min"),
        "owner_api_token": os.environ.get("THROTTLE_OWNER_API_TOKEN", "30/min"),
    },
}

# Owner API (/api/owner/*): OAuth-style API keys with django-oauth-toolkit. Each key is a DOT
# Application (client-credentials grant, secret stored hashed) owned through apps.owner_api.
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "apps.owner_api.scopes.OwnerApiKeyScopes",
    "OAUTH2_VALIDATOR_CLASS": "apps.owner_api.oauth.OwnerApiOAuth2Validator",
    "ACCESS_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OWNER_API_TOKEN_TTL", "3600")),
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https"],
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    # RFC 9700 behaviour: no implicit or password grants, no tokens in query strings, access
    # tokens kept only as a SHA-256 checksum.
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Kiosk ordering service API",
    "DESCRIPTION": (
        "Three surfaces: the kiosk API under /api/public (device headers), the agent API under "
        "/api (cookie session + X-XSRF-TOKEN), and the owner-scoped token API under /api/auth and "
        "/api/v1 (bearer token). A suspended owner's kiosks cannot start sessions or pair, and its "
        "agents' tokens and API keys are refused on /api/auth/login, /api/v1/* and /api/owner/*: "
        "403 OWNER_SUSPENDED (the OAuth token endpoint: `owner_suspended`)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No validator badge: it would send the schema's address to validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MenuLanguageEnum": "apps.menu.labels.LANGUAGE_CODES",  # locale, default_locale
        "FulfilmentStatusEnum": "apps.orders.fulfilment.FULFILMENT_STATUSES",  # a kitchen ticket's or order's move
        "ReaderStatusEnum": "apps.billing.terminal.READER_STATUSES",  # a card reader's, as the processor reports it
        "PrinterRoleEnum": "apps.printing.models.PRINTER_ROLES",  # a printer's role (an API key's is another)
    },
}

# Pages answered with a strict Content-Security-Policy (apps/api/csp.py, django-csp's middleware
# choosing its policy by path): path prefixes, "/" the landing page alone, the super-admin and the
# API docs too. The apps' policy adds the video SDK's and the card element's sources. Other paths
# get no header.
CSP_PATHS = env_list("CSP_PATHS", "/,/panel/,/kitchen/,/board/,/r/,/admin/,/api/docs/")
CSP_APP_PATHS = env_list("CSP_APP_PATHS", "/agent/,/kiosk/")

# Security headers; PRODUCTION turns on the transport rules.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if PRODUCTION:
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

LANGUAGE_CODE = "en-us"
# The gettext catalogues (locale/<language>/LC_MESSAGES): django.po for the server's pages and
# mails, djangojs.po for the browser apps (docs/decisions/words.md, "Gettext catalogues").
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Uploaded and recorded media (session recordings). Production points this at shared storage.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
# Files saved to a local disk (recordings of customers) are this user's only.
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700
MEDIA_URL = "media/"

# Menu photos (apps/menu/photos.py): local media, served by the app with a year's cache headers
# at MENU_PHOTOS_URL, unless MENU_PHOTOS_BUCKET names an S3-compatible bucket (django-storages;
# credentials from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the instance role), whose objects
# carry the same Cache-Control and are read from the bucket's (or MENU_PHOTOS_PUBLIC_DOMAIN's) URL.
MENU_PHOTOS_URL = "/media/menu-photos/"
# Outside production: the plain pairing code seed_demo leaves for the kiosk app, shown by `/`.
DEMO_KIOSK_CODE_FILE = VAR_DIR / "demo-kiosk-app.json"
MENU_PHOTOS_BUCKET = os.environ.get("MENU_PHOTOS_BUCKET", "")
MENU_PHOTO_MAX_BYTES = int(os.environ.get("MENU_PHOTO_MAX_BYTES", str(8 * 1024 * 1024)))
MENU_PHOTO_MAX_PIXELS = int(os.environ.get("MENU_PHOTO_MAX_PIXELS", str(40_000_000)))
MENU_BODY_CACHE_SECONDS = int(os.environ.get("MENU_BODY_CACHE_SECONDS", "600"))  # one menu version's body
MENU_PHOTO_SIZE = int(os.environ.get("MENU_PHOTO_SIZE", "1024"))  # longest side after resizing
if MENU_PHOTOS_BUCKET:
    _menu_photos = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MENU_PHOTOS_BUCKET,
            "endpoint_url": os.environ.get("MENU_PHOTOS_ENDPOINT_URL") or None,
            "region_name": os.environ.get("MENU_PHOTOS_REGION") or None,
            "custom_domain": os.environ.get("MENU_PHOTOS_PUBLIC_DOMAIN") or None,
            "location": "menu-photos",
            "querystring_auth": False,  # public photos: plain, cacheable URLs
            "file_overwrite": False,
            "object_parameters": {"CacheControl": "public, max-age=31536000, immutable"},
        },
    }
else:
    _menu_photos = {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT / "menu-photos", "base_url": MENU_PHOTOS_URL},
    }
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "menu_photos": _menu_photos,
}

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
if not PRODUCTION:  # WhiteNoise warns about a missing one; production's comes from collectstatic
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
# daphne does not serve files: WhiteNoise does, from the collected files in production and
# straight from the app folders otherwise (no collectstatic needed for `make run` or tests).
WHITENOISE_USE_FINDERS = not PRODUCTION

# Logs: JSON lines with the request id in production (LOG_FORMAT=json), readable text otherwise.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "apps.api.logs.RequestIdFilter"},
        "escpos_connections": {"()": "apps.printing.escpos_io.QuietConnections"},
    },
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "text",
            "filters": ["request_id"],
        }
    },
    "root": {
        "handlers": ["console"],
        "level": os.environ.get("LOG_LEVEL", "INFO"),
        "filters": ["escpos_connections"],  # python-escpos's INFO per connection (apps/printing/escpos_io.py)
    },
    # Routine lines that drown the rest: Celery's "Task ... succeeded" for every tick of the
    # router (each second), the stripe library's line per processor call (billing keeps its own
    # record of each call) and python-escpos's own debug lines. Their warnings and errors still
    # show; LIBRARY_LOG_LEVEL=INFO brings the routine back.
    "loggers": {
        name: {"level": os.environ.get("LIBRARY_LOG_LEVEL", "WARNING")}
        for name in ("celery.app.trace", "stripe", "escpos")
    },
}

# Prometheus scrape at /metrics; with METRICS_TOKEN set, only `Authorization: Bearer <token>`.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")

# Sessions
SESSION_PENDING_TIMEOUT = int(os.environ.get("SESSION_PENDING_TIMEOUT", "180"))
# How often the beat ends the sessions pending longer than that (sessions.abandon_stale): a session
# times out up to this much after its deadline. Tests that wait on the timeout shorten it.
SESSION_ABANDON_SWEEP_SECONDS = float(os.environ.get("SESSION_ABANDON_SWEEP_SECONDS", "15"))
# The kiosk poll serves a session's status from a cached copy that every transition invalidates
# (apps/sessions/status_cache.py); this long at most it serves an agent's old name or avatar.
# 0 reads the database on every poll (bench/kiosk_poll.py measures that path with it).
KIOSK_STATUS_COPY_SECONDS = int(os.environ.get("KIOSK_STATUS_COPY_SECONDS", "10"))
# The status poll and the heartbeat are answered by a lean ASGI route in front of Django
# (apps/kiosk_app/hot_path.py); false sends them through Django like every other request.
KIOSK_HOT_PATH = env_bool("KIOSK_HOT_PATH", True)
# How long a video token lives (the spec's 60 minutes); tests shorten it to see clients refresh.
VIDEO_TOKEN_TTL_SECONDS = int(os.environ.get("VIDEO_TOKEN_TTL_SECONDS", "3600"))
# Which video provider the token endpoints issue for (docs/kiosk-and-agent.md "Video"): "agora",
# the managed service (production's default: its credentials are required there), or "webrtc",
# one peer connection kiosk <-> agent signalled over our own real-time server (the embedded and
# test default: it needs nothing outside the deployment).
VIDEO_PROVIDERS = ("agora", "webrtc")
VIDEO_PROVIDER = os.environ.get("VIDEO_PROVIDER", "").strip() or ("agora" if PRODUCTION else "webrtc")
# WebRTC's ICE servers: STUN and TURN URLs (comma-separated; none on a LAN). TURN credentials are
# derived per participant with coturn's `use-auth-secret` scheme from VIDEO_TURN_SECRET (coturn's
# `static-auth-secret`) and expire with the video token.
VIDEO_STUN_URLS = env_list("VIDEO_STUN_URLS")
VIDEO_TURN_URLS = env_list("VIDEO_TURN_URLS")
VIDEO_TURN_SECRET = os.environ.get("VIDEO_TURN_SECRET", "")
# A WebRTC connection "disconnected" this long restarts ICE (at once when "failed"), and again as
# often until it recovers; the token answer tells both apps (ice_restart_seconds). Tests shorten it.
VIDEO_ICE_RESTART_SECONDS = float(os.environ.get("VIDEO_ICE_RESTART_SECONDS", "3"))
# A call's chat messages are at most this many characters.
CHAT_MESSAGE_MAX_LENGTH = int(os.environ.get("CHAT_MESSAGE_MAX_LENGTH", "500"))
# The agent's chat opens by itself when the call has not connected within this many seconds (the
# customer's camera refused or missing: their side never joins the call).
CHAT_AGENT_OPEN_SECONDS = float(os.environ.get("CHAT_AGENT_OPEN_SECONDS", "15"))
# While its WebSocket is down, the agent dashboard reads what its channel would have told (the
# queue, its status, the sessions it holds, the session in hand) this often; while the socket is
# live it reads nothing on a timer (docs/realtime.md "Agent dashboard").
AGENT_FALLBACK_POLL_SECONDS = float(os.environ.get("AGENT_FALLBACK_POLL_SECONDS", "2"))

# Final webhook deliveries and the domain events no delivery references are kept this long,
# then pruned hourly in batches (apps/webhooks/retention.py); pending deliveries are never pruned.
EVENT_RETENTION_DAYS = int(os.environ.get("EVENT_RETENTION_DAYS", "30"))

# The kitchen display and the order board (apps/displays, docs/kiosk-and-agent.md "Displays"): a
# ticket turns amber, then red, this long after it was paid; the screens poll this often while
# their socket is down; the board highlights a number just ready this long, and (for a signed-in
# user; a board token carries its owner-set time) drops a ready number this long after.
KITCHEN_TICKET_WARN_SECONDS = float(os.environ.get("KITCHEN_TICKET_WARN_SECONDS", "300"))
KITCHEN_TICKET_LATE_SECONDS = float(os.environ.get("KITCHEN_TICKET_LATE_SECONDS", "600"))
DISPLAY_POLL_SECONDS = float(os.environ.get("DISPLAY_POLL_SECONDS", "2"))
DISPLAY_TICKETS_LIMIT = int(os.environ.get("DISPLAY_TICKETS_LIMIT", "200"))
BOARD_READY_HIGHLIGHT_SECONDS = float(os.environ.get("BOARD_READY_HIGHLIGHT_SECONDS", "10"))
BOARD_READY_SECONDS = int(os.environ.get("BOARD_READY_SECONDS", "600"))

# Email (the owner hears when a webhook is paused; customers' receipts). Outside
# production every mail is a file under var/mail (a receipt asked for on the demo kiosk can be
# read there); production sends through the SMTP server the environment names. Tests: locmem.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if PRODUCTION else "django.core.mail.backends.filebased.EmailBackend",
)
EMAIL_FILE_PATH = Path(os.environ.get("EMAIL_FILE_PATH", VAR_DIR / "mail"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))  # Django's own defaults: localhost:25, no TLS
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "no-reply@kiosk.local")
# Receipts by mail (whether the address is kept is each business's order setting, in the panel):
# a mail server that fails is tried again this many seconds later (five times).
RECEIPT_EMAIL_RETRY_SECONDS = float(os.environ.get("RECEIPT_EMAIL_RETRY_SECONDS", "60"))
# One order's receipt is mailed at most this many times in this window (429 RATE_LIMITED after).
RECEIPT_EMAILS_PER_ORDER = int(os.environ.get("RECEIPT_EMAILS_PER_ORDER", "3"))
RECEIPT_EMAILS_WINDOW_SECONDS = int(os.environ.get("RECEIPT_EMAILS_WINDOW_SECONDS", "3600"))

# Payment reconciliation (apps/billing/services/reconciliation.py): every this many seconds, the
# payments still waiting this long after they were created (and younger than the hours) are looked
# up with the processor, so a lost processor event never leaves a charged card without its order.
PAYMENT_RECONCILE_EVERY_SECONDS = float(os.environ.get("PAYMENT_RECONCILE_EVERY_SECONDS", "180"))
PAYMENT_RECONCILE_AFTER_SECONDS = int(os.environ.get("PAYMENT_RECONCILE_AFTER_SECONDS", "300"))
PAYMENT_RECONCILE_WITHIN_HOURS = int(os.environ.get("PAYMENT_RECONCILE_WITHIN_HOURS", "48"))


# Printing on the restaurant's network printers (apps/printing, docs/decisions/printing.md): a
# printer is given this long to connect and answer a status query; a runner's hold on a printer
# (renewed per ticket) runs out this long after a runner dies; a printer that cannot print is
# tried again after PRINT_RETRY_SECONDS, doubling up to PRINT_RETRY_MAX_SECONDS; the sweep that
# retries due printers and takes back tickets of dead runners runs this often.
PRINTER_TIMEOUT_SECONDS = float(os.environ.get("PRINTER_TIMEOUT_SECONDS", "5"))
PRINTER_LEASE_SECONDS = float(os.environ.get("PRINTER_LEASE_SECONDS", "60"))
PRINT_RETRY_SECONDS = float(os.environ.get("PRINT_RETRY_SECONDS", "2"))
PRINT_RETRY_MAX_SECONDS = float(os.environ.get("PRINT_RETRY_MAX_SECONDS", "60"))
PRINT_SWEEP_SECONDS = float(os.environ.get("PRINT_SWEEP_SECONDS", "5"))
# The kitchen display warns of a ticket still waiting for its printer this long after it was made.
PRINT_TICKET_LATE_SECONDS = float(os.environ.get("PRINT_TICKET_LATE_SECONDS", "120"))


# Periodic work (Celery beat)
class BeatEntry(TypedDict):
    task: str
    schedule: float  # seconds (apps.core.jobs' embedded beat reads it as such)


CELERY_BEAT_SCHEDULE: dict[str, BeatEntry] = {
    "billing-reconcile-payments": {"task": "billing.reconcile_payments", "schedule": PAYMENT_RECONCILE_EVERY_SECONDS},
    "webhooks-dispatch-due": {"task": "webhooks.dispatch_due", "schedule": 15.0},
    "printing-sweep": {"task": "printing.sweep", "schedule": PRINT_SWEEP_SECONDS},
    "webhooks-prune-attempts": {"task": "webhooks.prune_attempts", "schedule": 3600.0},
    "webhooks-prune-history": {"task": "webhooks.prune_history", "schedule": 3600.0},
    "kiosks-mark-offline": {"task": "kiosks.mark_offline", "schedule": 15.0},
    "sessions-abandon-stale": {"task": "sessions.abandon_stale", "schedule": SESSION_ABANDON_SWEEP_SECONDS},
    "kiosks-purge-pairing-codes": {"task": "kiosks.purge_pairing_codes", "schedule": 3600.0},
    "accounts-purge-login-challenges": {"task": "accounts.purge_login_challenges", "schedule": 3600.0},
    "video-purge-recordings": {"task": "video.purge_recordings", "schedule": 3600.0},
    "owner-api-purge-expired-tokens": {"task": "owner_api.purge_expired_tokens", "schedule": 3600.0},
}

# Benchmarks (bench/) and live tests: serve the reference view /bench/ping and a slow
# /bench/sleep?seconds=. Never on in production.
BENCH_ROUTES = env_bool("BENCH_ROUTES", False)

# Reports (apps/reports/rollup.py): a range with more sessions than this is read from the rollup
# on PostgreSQL (percentiles from histogram buckets); fewer are counted exactly from the sessions.
REPORTS_EXACT_MAX_SESSIONS = int(os.environ.get("REPORTS_EXACT_MAX_SESSIONS", "5000"))

# Routing (apps/routing/router.py, docs/kiosk-and-agent.md "Offers"): each owner's defaults,
# changed per owner on the panel's Settings page. K agents per wave, each offer lasting T s;
# after W s of waiting any language qualifies; M missed offers in a row set an agent on break.
ROUTING_OFFER_SIZE = int(os.environ.get("ROUTING_OFFER_SIZE", "3"))
ROUTING_OFFER_SECONDS = int(os.environ.get("ROUTING_OFFER_SECONDS", "15"))
ROUTING_ANY_LANGUAGE_AFTER_SECONDS = int(os.environ.get("ROUTING_ANY_LANGUAGE_AFTER_SECONDS", "30"))
ROUTING_MISSES_BEFORE_BREAK = int(os.environ.get("ROUTING_MISSES_BEFORE_BREAK", "2"))
ROUTING_SELF_SERVICE_AFTER_SECONDS = int(os.environ.get("ROUTING_SELF_SERVICE_AFTER_SECONDS", "120"))
# C: the sessions an agent holds at once (at most one of them a video conversation; sessions in
# payment and text chats fill the rest), per owner and per agent on the panel (apps/sessions/seats.py).
ROUTING_AGENT_CAPACITY = int(os.environ.get("ROUTING_AGENT_CAPACITY", "1"))
# Among agents equally loaded, the one who took the fewest customers within this many hours (a
# shift) is offered first, so turns even out over a shift (apps/routing/router.py agent_order).
ROUTING_FAIRNESS_HOURS = float(os.environ.get("ROUTING_FAIRNESS_HOURS", "12"))
# Signing in to the dashboard makes an offline agent available, or on break when this is on.
ROUTING_AGENTS_START_ON_BREAK = os.environ.get("ROUTING_AGENTS_START_ON_BREAK", "") in ("1", "true", "yes")
# How often the router's timer runs (lapsed offers, presence; also what recovers a dead
# process's timers); an agent counts as signed in while its dashboard holds its real-time
# connection or polled within AGENT_SIGNED_IN_SECONDS; one gone for AGENT_GONE_SECONDS is offline.
ROUTING_TICK_SECONDS = float(os.environ.get("ROUTING_TICK_SECONDS", "1"))
AGENT_SIGNED_IN_SECONDS = int(os.environ.get("AGENT_SIGNED_IN_SECONDS", "10"))
AGENT_GONE_SECONDS = int(os.environ.get("AGENT_GONE_SECONDS", "60"))
# The tick's presence step (marking the agents holding their channel as seen, setting offline
# those gone) runs this often, at most once per tick: well inside AGENT_SIGNED_IN_SECONDS.
ROUTING_PRESENCE_SECONDS = float(os.environ.get("ROUTING_PRESENCE_SECONDS", str(AGENT_SIGNED_IN_SECONDS / 2)))
CELERY_BEAT_SCHEDULE["routing-route"] = {"task": "routing.route", "schedule": ROUTING_TICK_SECONDS}
