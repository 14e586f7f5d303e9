"""The cluster recipe: `deploy/cluster.sh` starts two web processes, a worker and beat on PgBouncer
(transaction pooling) and Redis, behind HAProxy, from Debian packages; the settings PgBouncer needs;
HAProxy's configuration is valid and overwrites the client address."""

import os
import shutil
import socket
import subprocess
import sys

import pytest
import requests

from tests.support.processes import ROOT, wait_until

CLUSTER_BINARIES = ("haproxy", "pgbouncer", "redis-server")


def settings_probe(tmp_path, env: dict, probe: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DATABASE_POOLER"}}
    base.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path), APP_ENV="test", **env)
    return subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=base, capture_output=True, text=True, timeout=60, check=False
    )


def test_behind_pgbouncer_no_server_side_cursors_or_prepared_statements(tmp_path):
    probe = (
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['DISABLE_SERVER_SIDE_CURSORS'], d['OPTIONS']['prepare_threshold'])"
    )
    env = {"DATABASE_URL": "postgres://kiosk@127.0.0.1:6432/kiosk", "DATABASE_POOLER": "pgbouncer"}
    done = settings_probe(tmp_path, env, probe)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "None"]
    refused = settings_probe(
        tmp_path, {**env, "DATABASE_POOLER": "pgpool"}, "import django.conf as c; c.settings.DEBUG"
    )
    assert refused.returncode != 0 and "DATABASE_POOLER must be empty or pgbouncer" in refused.stderr


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="needs haproxy (apt-get install haproxy)")
def test_the_haproxy_configuration_is_valid_and_overwrites_the_client_address(tmp_path):
    env = {
        **os.environ,
        "HAPROXY_BIND": "127.0.0.1:1",
        "HAPROXY_STATS_SOCKET": str(tmp_path / "s.sock"),
        "WEB1": "127.0.0.1:2",
        "WEB2": "127.0.0.1:3",
    }
    checked = subprocess.run(
        ["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], env=env, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert "http-request del-header X-Forwarded-For" in config.split("option forwardfor")[0]
    assert "uri /readyz" in config and "timeout tunnel" in config


def free_port_block() -> int:
    """A port p with p..p+12 free (HAProxy, the web processes, PostgreSQL, PgBouncer, Redis)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port + 12 < 65535 and all(_free(port + offset) for offset in (0, 1, 2, 10, 11, 12)):
            return port
    raise RuntimeError("no free block of ports")


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.mark.live
@pytest.mark.skipif(
    any(shutil.which(name) is None for name in CLUSTER_BINARIES), reason="needs haproxy, pgbouncer and redis-server"
)
def test_make_cluster_serves_through_haproxy_and_pgbouncer_and_stops():
    port = free_port_block()
    env = {**os.environ, "CLUSTER_PORT": str(port)}
    # The suite's settings, not the recipe's (PgBouncer refuses PGOPTIONS' startup parameter).
    for name in ("DATABASE_URL", "REDIS_URL", "APP_ENV", "CACHE_KEY_PREFIX", "PGOPTIONS"):
        env.pop(name, None)
    script = str(ROOT / "deploy" / "cluster.sh")
    started = subprocess.run([script, "start"], env=env, capture_output=True, text=True, timeout=240)
    try:
        assert started.returncode == 0, started.stdout[-3000:] + started.stderr[-3000:]
        base = f"http://127.0.0.1:{port}"
        ready = requests.get(f"{base}/readyz", timeout=10)
        assert ready.json()["checks"] == {"database": "ok", "redis": "ok"}
        # Both web processes answer behind HAProxy.
        for web in (port + 1, port + 2):
            assert requests.get(f"http://127.0.0.1:{web}/healthz", timeout=10).status_code == 200
        # A made-up X-Forwarded-For per attempt does not escape the sign-in limit: HAProxy overwrites it.
        body = {"email": "nobody@example.com", "password": "wrong-password"}
        answers = [
            requests.post(f"{base}/api/auth/login", json=body, headers={"X-Forwarded-For": f"6.6.6.{i}"}, timeout=10)
            for i in range(6)
        ]
        assert [a.status_code for a in answers] == [401] * 5 + [429]
    finally:
        stopped = subprocess.run([script, "clean"], env=env, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0, stopped.stderr

    def refused() -> bool:
        try:
            requests.get(f"http://127.0.0.1:{port}/readyz", timeout=5)
        except requests.ConnectionError:
            return True
        return False

    wait_until(refused, 10, "the cluster's balancer to stop answering")
    assert not (ROOT / "var" / f"cluster-{port}").exists()
