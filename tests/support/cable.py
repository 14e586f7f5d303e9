"""A device behind a network cable the test can pull: a Chromium of its own in a Linux network
namespace, joined to this host by a veth pair, reaching the test server through a TCP forwarder
on the host's end of the pair. Pulling the cable (the host's end down) cuts everything that side
sends or receives, the WebRTC media (UDP, which Chromium's own offline emulation leaves alone)
and the WebSockets alike; putting it back restores the path.

Needs root and iproute2 (the project's machines and CI have both); elsewhere the test skips, and
in CI it fails, as for a missing Chromium (tests/support/browser.py)."""

import os
import shutil
import socket
import subprocess
import threading
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class Cable:
    def __init__(self, tag: int):
        self.namespace = f"kcab{tag}"
        self.host_end, self.device_end = f"kch{tag}", f"kcd{tag}"  # at most 15 characters
        base = 4 * (tag % 16384)  # a /30 of its own per process: parallel runs do not meet
        prefix = f"10.214.{base // 256}"
        self.host_ip, self.device_ip = f"{prefix}.{base % 256 + 1}", f"{prefix}.{base % 256 + 2}"

    def lay(self) -> None:
        _ip("netns", "add", self.namespace)
        _ip("link", "add", self.host_end, "type", "veth", "peer", "name", self.device_end)
        _ip("link", "set", self.device_end, "netns", self.namespace)
        _ip("addr", "add", f"{self.host_ip}/30", "dev", self.host_end)
        _ip("link", "set", self.host_end, "up")
        inside = ("netns", "exec", self.namespace, "ip")
        # No IPv6 link-local address on the device's end: its duplicate-address check ends a
        # second or two after the link comes up, and Chromium takes that address change for a
        # new network and fails the page's loads in flight (net::ERR_NETWORK_CHANGED).
        _ip(*inside, "link", "set", self.device_end, "addrgenmode", "none")
        _ip(*inside, "addr", "add", f"{self.device_ip}/30", "dev", self.device_end)
        _ip(*inside, "link", "set", self.device_end, "up")
        _ip(*inside, "link", "set", "lo", "up")

    def pull(self) -> None:
        _ip("link", "set", self.host_end, "down")

    def plug(self) -> None:
        _ip("link", "set", self.host_end, "up")

    def remove(self) -> None:
        subprocess.run(["ip", "link", "del", self.host_end], capture_output=True, timeout=10)
        subprocess.run(["ip", "netns", "del", self.namespace], capture_output=True, timeout=10)

    def chromium(self, folder: Path, chromium: str) -> str:
        """An executable that starts `chromium` inside the namespace (Playwright drives it over a
        pipe, so the namespace does not come between them)."""
        wrapper = folder / "chromium-behind-cable"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {self.namespace} {chromium} "$@"\n')
        wrapper.chmod(0o755)
        return str(wrapper)


class Forwarder:
    """host_ip:port -> 127.0.0.1:target (set once the server runs), byte for byte, a thread per
    direction."""

    def __init__(self, host: str):
        self.target = 0
        self.listener = socket.create_server((host, 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=5)
            except OSError:
                return
            upstream.settimeout(None)
            self.open += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()
        for end in self.open:
            end.close()


@contextmanager
def laid_cable():
    if os.geteuid() != 0 or not shutil.which("ip"):
        message = "pulling a network cable needs root and iproute2 (ip netns)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    cable = Cable(os.getpid())
    cable.remove()  # a namespace an interrupted run of this process id left behind
    try:
        cable.lay()
    except subprocess.CalledProcessError as error:
        cable.remove()
        message = f"could not lay a network namespace: {error.stderr.decode(errors='replace').strip()}"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    try:
        yield cable
    finally:
        cable.remove()
