"""The web process reaches into daphne and Twisted where they have no public API (config/serve.py,
config/twisted_eager_write.py). Both libraries are pinned exactly; these tests fail loudly, naming
the adapter, when an upgrade removes or changes what the adapters rely on."""

import inspect
import socket

import pytest
from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import abstract, tcp

from config.twisted_eager_write import PRIVATE_NAMES, EagerWriteConnection

# daphne.server.Server methods config/serve.py's DrainingServer overrides, with their parameters.
DAPHNE_OVERRIDES = {
    "run": ["self"],
    "listen_success": ["self", "port"],
    "application_checker": ["self"],
    "timeout_checker": ["self"],
    "protocol_connected": ["self", "protocol"],
    "handle_reply": ["self", "protocol", "message"],
    "kill_all_applications": ["self"],
}


@pytest.mark.parametrize("name", sorted(DAPHNE_OVERRIDES))
def test_daphne_still_has_each_server_method_config_serve_overrides(name):
    method = getattr(Server, name, None)
    assert method is not None, f"daphne.server.Server.{name} is gone: config/serve.py overrides it"
    parameters = list(inspect.signature(method).parameters)
    assert parameters == DAPHNE_OVERRIDES[name], f"daphne.server.Server.{name} changed: see config/serve.py"


def test_daphne_cli_still_builds_its_server_from_server_class():
    assert CommandLineInterface.server_class is Server, "daphne's CLI no longer uses server_class: config/serve.py"
    source = inspect.getsource(CommandLineInterface.run)
    assert "self.server_class(" in source, "daphne's CLI no longer uses server_class: config/serve.py"


def test_twisted_still_has_the_private_write_state_the_eager_write_reads():
    """Read on a real accepted connection: both names exist and say "nothing queued" when idle."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = socket.create_connection(listener.getsockname())
    accepted, address = listener.accept()
    try:
        connection = tcp.Server(accepted, None, address, None, 1, reactor=_NoReactor())
        for name in PRIVATE_NAMES:
            assert hasattr(connection, name), f"Twisted's {name} is gone: see config/twisted_eager_write.py"
        assert not connection._tempDataBuffer and connection._writeDisconnected is False
        assert issubclass(EagerWriteConnection, abstract.FileDescriptor)
        assert "transport" in vars(tcp.Port), "tcp.Port.transport is gone: see config/twisted_eager_write.py"
    finally:
        for sock in (client, accepted, listener):
            sock.close()


class _NoReactor:
    """tcp.Server's constructor only starts reading through its reactor."""

    def addReader(self, reader):
        pass

    def callLater(self, *args, **kwargs):
        pass
