#!/bin/sh
# `make cluster`: the production process set on one machine, from Debian packages (haproxy,
# pgbouncer, redis-server, PostgreSQL): PostgreSQL and Redis of its own, PgBouncer in transaction
# pooling mode, two web processes, a Celery worker and beat, HAProxy in front (docs/deploy.md).
# Everything lives under var/cluster-<port>/ (0700). `deploy/cluster.sh stop` stops it all (the data
# stays for the next start); `deploy/cluster.sh clean` stops it and deletes the data.
#
# Ports (override in the environment): CLUSTER_PORT (HAProxy, 8080), then +1, +2 the web
# processes, +10 PostgreSQL, +11 PgBouncer, +12 Redis.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PORT=${CLUSTER_PORT:-8080}
RUN="$ROOT/var/cluster-$PORT"
PY="$ROOT/.venv/bin/python"
WEB1=$((PORT + 1)) WEB2=$((PORT + 2)) PG=$((PORT + 10)) BOUNCER=$((PORT + 11)) REDIS=$((PORT + 12))

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -n 1)}
PATH="$PGBIN:$PATH"
# PostgreSQL and PgBouncer refuse to run as root: as root, they run as the postgres user, in
# directories of theirs outside var/ (which is root's only).
if [ "$(id -u)" = 0 ]; then AS_DB="runuser -u postgres --" DB_DIR="/var/tmp/kiosk-cluster-$PORT"; else AS_DB="" DB_DIR="$RUN"; fi

need() { command -v "$1" >/dev/null 2>&1 || { echo "make cluster needs $1 (apt-get install $2)"; exit 1; }; }

stop() {
    for name in haproxy web1 web2 worker beat redis; do
        if [ -f "$RUN/$name.pid" ]; then
            kill "$(cat "$RUN/$name.pid")" 2>/dev/null || true
            rm -f "$RUN/$name.pid"
        fi
    done
    if [ -f "$DB_DIR/bouncer/pgbouncer.pid" ]; then kill "$(cat "$DB_DIR/bouncer/pgbouncer.pid")" 2>/dev/null || true; fi
    if [ -d "$DB_DIR/pg/data" ]; then $AS_DB pg_ctl -D "$DB_DIR/pg/data" -m fast stop >/dev/null 2>&1 || true; fi
    echo "cluster stopped"
}

case "${1:-start}" in
    stop) stop; exit 0 ;;
    clean) stop; rm -rf "$RUN" "$DB_DIR"; exit 0 ;;
    start) ;;
    *) echo "usage: deploy/cluster.sh [start|stop|clean]"; exit 2 ;;
esac

need haproxy haproxy; need pgbouncer pgbouncer; need redis-server redis-server
need initdb postgresql; need pg_ctl postgresql
mkdir -p "$RUN" "$DB_DIR/pg" "$DB_DIR/bouncer" && chmod 700 "$RUN" "$DB_DIR/pg" "$DB_DIR/bouncer"
if [ -n "$AS_DB" ]; then chown postgres "$DB_DIR" "$DB_DIR/pg" "$DB_DIR/bouncer" && chmod 700 "$DB_DIR"; fi
stop >/dev/null

# Secrets of this machine's cluster, made once (production mode needs them all).
if [ ! -f "$RUN/env" ]; then
    "$PY" - > "$RUN/env" <<'PYTHON'
import base64, secrets
print(f"SECRET_KEY={secrets.token_urlsafe(50)}")
print(f"REALTIME_APP_ID={secrets.randbelow(900000) + 100000}")
print(f"REALTIME_APP_KEY={secrets.token_hex(10)}")
print(f"REALTIME_APP_SECRET={secrets.token_hex(10)}")
print(f"VIDEO_APP_ID={secrets.token_hex(16)}")
print(f"VIDEO_APP_CERTIFICATE={secrets.token_hex(16)}")
print(f"WEBHOOK_SECRET_KEYS={base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()}")
print(f"METRICS_TOKEN={secrets.token_hex(16)}")
PYTHON
    chmod 600 "$RUN/env"
fi
set -a
. "$RUN/env"
APP_ENV=production
ALLOWED_HOSTS=127.0.0.1,localhost
DATABASE_URL="postgres://kiosk@127.0.0.1:$BOUNCER/kiosk"
DATABASE_POOLER=pgbouncer
REDIS_URL="redis://127.0.0.1:$REDIS/0"
TRUSTED_PROXIES=127.0.0.1  # HAProxy; clients of this local recipe also come from 127.0.0.1
SECURE_SSL_REDIRECT=false  # plain HTTP on this machine: TLS ends at the load balancer in production
SESSION_COOKIE_SECURE=false
REQUIRE_TLS=false
TRUST_PROXY=true
VAR_DIR="$RUN/var"
set +a
mkdir -p "$VAR_DIR"

# PostgreSQL and Redis of the cluster's own.
if [ ! -d "$DB_DIR/pg/data" ]; then
    $AS_DB initdb -D "$DB_DIR/pg/data" -U kiosk --auth=trust >"$RUN/initdb.log"
fi
$AS_DB pg_ctl -D "$DB_DIR/pg/data" -o "-p $PG -k $DB_DIR/pg -c listen_addresses=127.0.0.1" -l "$DB_DIR/pg/postgres.log" -w start \
    >/dev/null
psql -h 127.0.0.1 -p "$PG" -U kiosk -d postgres -tAc "select 1 from pg_database where datname='kiosk'" | grep -q 1 \
    || createdb -h 127.0.0.1 -p "$PG" -U kiosk kiosk
redis-server --port "$REDIS" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --pidfile "$RUN/redis.pid" --logfile "$RUN/redis.log"

# PgBouncer, transaction pooling (deploy/pgbouncer.ini plus this machine's lines).
{
    echo "[databases]"
    echo "kiosk = host=127.0.0.1 port=$PG dbname=kiosk user=kiosk"
    cat deploy/pgbouncer.ini
    echo "listen_addr = 127.0.0.1"
    echo "listen_port = $BOUNCER"
    echo "auth_type = trust"
    echo "auth_file = $DB_DIR/bouncer/userlist.txt"
    echo "logfile = $DB_DIR/bouncer/pgbouncer.log"
    echo "pidfile = $DB_DIR/bouncer/pgbouncer.pid"
    echo "unix_socket_dir ="
} > "$DB_DIR/bouncer/pgbouncer.ini"
echo '"kiosk" ""' > "$DB_DIR/bouncer/userlist.txt"
if [ -n "$AS_DB" ]; then chown postgres "$DB_DIR/bouncer/pgbouncer.ini" "$DB_DIR/bouncer/userlist.txt"; fi
$AS_DB pgbouncer -d "$DB_DIR/bouncer/pgbouncer.ini"

# Run once per release: migrations straight to PostgreSQL (DDL needs no pooling), static files.
DATABASE_URL="postgres://kiosk@127.0.0.1:$PG/kiosk" "$PY" manage.py migrate --noinput >"$RUN/migrate.log"
"$PY" manage.py collectstatic --noinput -v 0

# Two web processes, a worker and beat, each in the background with its pid file.
start() {
    name=$1; shift
    nohup "$@" >"$RUN/$name.log" 2>&1 &
    echo $! > "$RUN/$name.pid"
}
start web1 env PORT=$WEB1 "$PY" -m config.serve -b 127.0.0.1 -p "$WEB1" config.asgi:application
start web2 env PORT=$WEB2 "$PY" -m config.serve -b 127.0.0.1 -p "$WEB2" config.asgi:application
start worker "$ROOT/.venv/bin/celery" -A config.celery:app worker --loglevel=INFO --concurrency=2
start beat "$ROOT/.venv/bin/celery" -A config.celery:app beat --loglevel=INFO --schedule="$RUN/celerybeat-schedule"

HAPROXY_BIND="127.0.0.1:$PORT" HAPROXY_STATS_SOCKET="$RUN/haproxy.sock" WEB1="127.0.0.1:$WEB1" WEB2="127.0.0.1:$WEB2" \
    haproxy -D -f deploy/haproxy.cfg -p "$RUN/haproxy.pid"

# Ready when HAProxy answers /readyz through a web process.
tries=0
until curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 60 ]; then echo "the cluster did not become ready: see $RUN/*.log"; exit 1; fi
    sleep 1
done
echo "cluster ready on http://127.0.0.1:$PORT/ (web on $WEB1 and $WEB2, PgBouncer $BOUNCER, PostgreSQL $PG, Redis $REDIS)"
echo "stop it with: deploy/cluster.sh stop (logs in $RUN)"
