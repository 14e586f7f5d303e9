"""A network cable the test can pull, between two Linux network namespaces of their own: the
kiosk's side (its Chromium) and the office's side (the agent's Chromium, and a TCP forwarder to the
test server on this host's 127.0.0.1). Pulling the cable (the office end of the veth pair down)
cuts everything the kiosk sends or receives, the WebRTC media between the two Chromiums (UDP,
which Chromium's own offline emulation leaves alone) and the WebSockets alike; putting it back
restores the path.

The host's own network namespace is never touched: no link or address of it changes, so every
other Chromium on the machine (another test worker's, another suite's) keeps its loads. A Chromium
takes any link or address change in its namespace for a new network and fails its loads in flight
(net::ERR_NETWORK_CHANGED), which a veth end on the host did. Only the forwarder's listening socket
lives in the office namespace (made by a thread that enters it: Linux switches the network
namespace per thread); its connections to the server are made from the host's.

Needs root and iproute2 (the project's machines and CI have both); elsewhere the test skips, and
in CI it fails, as for a missing Chromium (tests/support/browser.py)."""

import ctypes
import os
import shutil
import socket
import subprocess
import threading
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

_CLONE_NEWNET = 0x40000000


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class Cable:
    def __init__(self, tag: int):
        self.kiosk_side, self.office_side = f"kcab{tag}", f"kcao{tag}"
        self.office_end, self.kiosk_end = f"kco{tag}", f"kck{tag}"  # at most 15 characters
        base = 4 * (tag % 16384)  # a /30 of its own per process: parallel runs do not meet
        prefix = f"10.214.{base // 256}"
        self.office_ip, self.kiosk_ip = f"{prefix}.{base % 256 + 1}", f"{prefix}.{base % 256 + 2}"

    def lay(self) -> None:
        _ip("netns", "add", self.kiosk_side)
        _ip("netns", "add", self.office_side)
        # Made inside the office namespace, its peer moved at once to the kiosk's: the host's
        # namespace never holds either end, not even for a moment.
        peer = ("peer", "name", self.kiosk_end, "netns", self.kiosk_side)
        _ip("-n", self.office_side, "link", "add", self.office_end, "type", "veth", *peer)
        for namespace, end, address in (
            (self.office_side, self.office_end, self.office_ip),
            (self.kiosk_side, self.kiosk_end, self.kiosk_ip),
        ):
            # No IPv6 link-local address: its duplicate-address check ends a second or two after
            # the link comes up, and the Chromium on that side would take that late address
            # change for a new network and fail the page's loads in flight.
            _ip("-n", namespace, "link", "set", end, "addrgenmode", "none")
            _ip("-n", namespace, "addr", "add", f"{address}/30", "dev", end)
            _ip("-n", namespace, "link", "set", end, "up")
            _ip("-n", namespace, "link", "set", "lo", "up")

    def pull(self) -> None:
        _ip("-n", self.office_side, "link", "set", self.office_end, "down")

    def plug(self) -> None:
        _ip("-n", self.office_side, "link", "set", self.office_end, "up")

    def remove(self) -> None:
        # Deleting a namespace deletes the veth end in it, and with it its peer.
        for namespace in (self.kiosk_side, self.office_side):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=10)

    def chromium(self, folder: Path, chromium: str, namespace: str) -> str:
        """An executable that starts `chromium` inside `namespace` (Playwright drives it over a
        pipe, so the namespace does not come between them)."""
        wrapper = folder / f"chromium-in-{namespace}"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {namespace} {chromium} "$@"\n')
        wrapper.chmod(0o755)
        return str(wrapper)

    def listen_on_office_side(self) -> socket.socket:
        """A listening TCP socket on every address of the office namespace (its loopback and its
        end of the cable), any free port. A socket stays in the namespace it was made in; the
        thread that entered the namespace to make it ends there."""
        made: dict = {}

        def enter_and_listen() -> None:
            libc = ctypes.CDLL(None, use_errno=True)
            try:
                with open(f"/run/netns/{self.office_side}") as namespace:
                    if libc.setns(namespace.fileno(), _CLONE_NEWNET) != 0:
                        error = ctypes.get_errno()
                        raise OSError(error, f"setns into {self.office_side}: {os.strerror(error)}")
                made["socket"] = socket.create_server(("", 0))
            except OSError as error:
                made["error"] = error

        thread = threading.Thread(target=enter_and_listen)
        thread.start()
        thread.join()
        if "error" in made:
            raise made["error"]
        return made["socket"]


class Forwarder:
    """listener's port -> 127.0.0.1:target (set once the server runs), byte for byte, a thread per
    direction. The listener may be in another namespace; the connections out are the host's."""

    def __init__(self, listener: socket.socket):
        self.target = 0
        self.listener = listener
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
        with suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread
        self.listener.close()
        for end in self.open:
            end.close()


def _cannot(message: str):
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@contextmanager
def laid_cable():
    if os.geteuid() != 0 or not shutil.which("ip"):
        _cannot("pulling a network cable needs root and iproute2 (ip netns)")
    cable = Cable(os.getpid())
    cable.remove()  # namespaces an interrupted run of this process id left behind
    try:
        cable.lay()
    except subprocess.CalledProcessError as error:
        cable.remove()
        _cannot(f"could not lay a network namespace: {error.stderr.decode(errors='replace').strip()}")
    try:
        yield cable
    finally:
        cable.remove()
