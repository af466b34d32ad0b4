"""widget-scheduler as a standard Varlink peer, seen by a third-party client: the `varlink` package from PyPI
(scripts/setup.sh installs it). The real daemon (WIDGET_SCHEDULER_BIN, the build's bin directory) runs on a socket of
its own; the test introspects it, calls every method of io.widgetscheduler.Scheduler through the client's
interface-driven calls, checks the errors it maps to its own exceptions, streams Watch with `more` until the daemon
stops, and sends what a careless client might (an unknown parameter, a string for an integer, an upgrade) raw."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import pytest
import varlink

INTERFACE = "io.widgetscheduler.Scheduler"
HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = """\
exec = "./conformance-provider.sh"
timeout = 10
memory-max = "32M"
group = "conformance"

[[widget]]
kind = "conformance"
display-name = "Conformance"
description = "Answers every request"

[widget.parameters.size]
type = "integer"
default = 2

[widget.parameters.city]
type = "string"
default = "paris"
options = "dynamic"

[widget.views]
version = 1
[widget.views.families.systemSmall.body]
type = "text"
value = "text"
"""


class Daemon:
    """widget-scheduler on a socket of its own, in a scratch directory."""

    def __init__(self, binaries):
        self.root = tempfile.mkdtemp(prefix="varlink-conformance-")
        providers = os.path.join(self.root, "providers")
        os.makedirs(providers)
        with open(os.path.join(providers, "conformance.toml"), "w") as manifest:
            manifest.write(MANIFEST)
        shutil.copy(os.path.join(HERE, "conformance-provider.sh"), providers)
        self.socket = os.path.join(self.root, "run", "control.socket")
        self.log = open(os.path.join(self.root, "daemon.log"), "w")
        self.process = subprocess.Popen(
            [os.path.join(binaries, "widget-scheduler"), "--config", os.path.join(self.root, "none.toml"),
             "--state-dir", os.path.join(self.root, "state"), "--runtime-dir", os.path.join(self.root, "run"),
             "--providers-dir", providers, "--log-level", "debug"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            env={k: v for k, v in os.environ.items()
                 if k not in ("NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM",
                              "STATE_DIRECTORY", "RUNTIME_DIRECTORY", "WATCHDOG_USEC", "WATCHDOG_PID")})
        # Ready when it answers, not when the socket file appears; generous, for a loaded machine.
        deadline = time.monotonic() + 120
        while True:
            assert self.process.poll() is None, "the daemon ended before answering:\n" + self.log_text()
            try:
                self.raw({"method": "org.varlink.service.GetInfo"}, timeout=2)
                return
            except OSError:
                assert time.monotonic() < deadline, "the daemon did not answer:\n" + self.log_text()
                time.sleep(0.1)

    def log_text(self):
        with open(self.log.name) as log:
            return log.read()

    def raw(self, message, timeout=60):
        """Sends one message as bytes on a connection of its own and returns the reply, parsed."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(timeout)
            connection.connect(self.socket)
            connection.sendall(json.dumps(message).encode() + b"\0")
            received = b""
            while not received.endswith(b"\0"):
                chunk = connection.recv(65536)
                assert chunk, "the daemon closed the connection without a reply"
                received += chunk
            return json.loads(received[:-1])

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=120)
        self.log.close()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="module")
def daemon():
    binaries = os.environ.get("WIDGET_SCHEDULER_BIN")
    assert binaries, "set WIDGET_SCHEDULER_BIN to the build's bin directory (swift build --show-bin-path)"
    running = Daemon(binaries)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(daemon):
    with varlink.Client(address="unix:" + daemon.socket) as made:
        yield made


def open_interface(client, timeout=60):
    connection = client.open_connection()
    connection.settimeout(timeout)
    return client.open(INTERFACE, namespaced=False, connection=connection)


def methods_of(interface):
    """The names of the methods the client's scanner read from an interface description."""
    return {name for name, member in interface.members.items() if isinstance(member, varlink.scanner._Method)}


def wait_for(what, probe, timeout=120):
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for " + what
        time.sleep(0.1)


def test_introspection_names_both_interfaces_and_the_description_parses(client):
    with client.open("org.varlink.service") as service:
        info = service.GetInfo()
        assert info["interfaces"] == ["org.varlink.service", INTERFACE]
        assert info["product"] == "widget-scheduler" and info["version"]
    # The client parses the description with its own scanner: every method is a callable.
    interface = client.get_interface(INTERFACE)
    with open(os.path.join(HERE, "..", "..", "docs", INTERFACE + ".varlink")) as documented:
        assert interface.description == documented.read()
    assert {"Reload", "Watch"} <= methods_of(interface)


def test_every_method_answers_through_the_client(client, daemon):
    called = set()
    with open_interface(client) as scheduler:
        def call(name, *args, **kwargs):
            called.add(name)
            return getattr(scheduler, name)(*args, **kwargs)

        kinds = call("Kinds")["kinds"]
        assert [kind["kind"] for kind in kinds] == ["conformance"]
        assert {p["name"]: p["type"] for p in kinds[0]["parameters"]} == {"size": "integer", "city": "string"}
        widget = call("Add", kind="conformance", parameters={"size": 3})["id"]
        wait_for("the widget's first timeline",
                 lambda: call("Timeline", id=widget).get("entries"))
        assert [w["id"] for w in call("List")["widgets"]] == [widget]
        status = call("Status")
        assert status["widgets"] == 1 and status["kinds"] == 1
        assert status["providerDirectories"][0]["state"] == "read"
        decision = call("Configure", id=widget, parameters={"size": 4})["decision"]
        assert decision["widget"] == widget and decision["decision"] in ("ran", "coalesced", "deferred")
        reload = call("Reload", kind="conformance")
        assert [d["widget"] for d in reload["decisions"]] == [widget] and reload["kind"] == "conformance"
        assert call("Reload", kind="conformance", foreground=True)["decisions"][0]["decision"] in ("ran", "coalesced")
        options = call("Options", kind="conformance", parameter="city", search="o")
        assert [option["value"] for option in options["options"]] == ["paris", "oslo"]
        assert call("Budget", id=widget)["ledgers"][0]["widget"] == widget
        assert call("Stack")["stack"][0]["widget"] == widget
        assert call("Snapshot", kind="conformance")["entry"]["content"] == {"text": "preview"}
        # The provider writes no image, so the method answers with its declared error, named by the client.
        with pytest.raises(varlink.VarlinkError) as missing:
            call("Image", widget=widget, sha256="0" * 64)
        assert missing.value.error() == INTERFACE + ".NoSuchImage"
        assert missing.value.parameters()["sha256"] == "0" * 64
        views = call("Views")["views"]
        assert [view["kind"] for view in views] == ["conformance"]
        assert views[0]["views"]["families"]["systemSmall"]["body"] == {"type": "text", "value": "text"}
        assert call("Views", kind="conformance")["views"] == views
        written = call("DataSet", group="conformance", key="city", value="Oslo")
        assert written["updatedAt"] and written["decisions"] == []
        assert call("DataGet", group="conformance", key="city")["value"] == "Oslo"
        assert [item["key"] for item in call("DataList", group="conformance")["items"]] == ["city"]
        call("DataDelete", group="conformance", key="city")
        call("Remove", id=widget)
        assert call("List")["widgets"] == []
    interface = client.get_interface(INTERFACE)
    # Watch is called with `more` below; every other method was called here.
    assert called | {"Watch"} == methods_of(interface)


def test_errors_map_to_the_clients_exceptions(client, daemon):
    with open_interface(client) as scheduler:
        with pytest.raises(varlink.VarlinkError) as unknown:
            scheduler.Timeline(id="no-such-widget")
        assert unknown.value.error() == INTERFACE + ".UnknownWidget"
        assert unknown.value.parameters() == {"id": "no-such-widget"}
        with pytest.raises(varlink.VarlinkError) as kind:
            scheduler.Add(kind="no-such-kind")
        assert kind.value.error() == INTERFACE + ".UnknownKind"
        # No target at all: the standard InvalidParameter, which the client raises as its own class.
        with pytest.raises(varlink.InvalidParameter) as invalid:
            scheduler.Reload()
        assert invalid.value.error() == "org.varlink.service.InvalidParameter"
        with pytest.raises(varlink.VarlinkError) as expected_more:
            scheduler.Watch()
        assert expected_more.value.error() == "org.varlink.service.ExpectedMore"
    with pytest.raises(varlink.InterfaceNotFound):
        client.open("com.example.Nothing")
    reply = daemon.raw({"method": INTERFACE + ".Explode"})
    assert reply["error"] == "org.varlink.service.MethodNotFound"


@pytest.mark.parametrize("message, parameter", [
    ({"method": INTERFACE + ".List", "parameters": {"bogus": 1}}, "bogus"),
    ({"method": INTERFACE + ".Reload", "parameters": {"kind": "conformance", "foregound": True}}, "foregound"),
    ({"method": "org.varlink.service.GetInfo", "parameters": {"bogus": 1}}, "bogus"),
    ({"method": INTERFACE + ".Add", "parameters": {"kind": "conformance", "parameters": {"size": "3"}}}, "size"),
    ({"method": INTERFACE + ".Reload", "parameters": {"kind": 42}}, "kind"),
    ({"method": INTERFACE + ".Timeline", "parameters": {}}, "id"),
    ({"method": INTERFACE + ".Status", "upgrade": True}, "upgrade"),
], ids=["unknown parameter", "misspelt parameter", "unknown service parameter", "string for an integer",
        "mistyped parameter", "missing parameter", "upgrade"])
def test_what_a_careless_client_sends_is_refused_with_the_standard_error(daemon, message, parameter):
    reply = daemon.raw(message)
    assert reply.get("error") == "org.varlink.service.InvalidParameter", reply
    assert reply["parameters"]["parameter"] == parameter
    assert reply["parameters"]["reason"], "the reason rides along, in a field clients may ignore"
    # The client maps it to its own exception, as it does for any service.
    assert isinstance(varlink.VarlinkError.new(reply), varlink.InvalidParameter)


def test_watch_streams_with_more_and_ends_with_a_declared_error_when_the_daemon_stops(client, daemon):
    with open_interface(client) as setup:
        widget = setup.Add(kind="conformance")["id"]
    watcher = open_interface(client, timeout=120)
    received = []

    def consume():
        # The client sends the call when the generator is first read, so the stream is read on a thread of its own
        # while this one makes events happen.
        try:
            for event in watcher.Watch(id=widget, _more=True):
                received.append(event)
        except varlink.VarlinkError as error:
            received.append(error)

    reader = threading.Thread(target=consume, daemon=True)
    reader.start()
    with open_interface(client) as scheduler:
        # Until the daemon has the Watch call, a reload's events pass it by: ask again until one arrives.
        wait_for("an event on the stream",
                 lambda: received or scheduler.Reload(widgets=[widget], foreground=True) and None)
    event = received[0]
    assert event["widget"] == widget and event["event"] in ("decision", "runFinished", "entryChanged")
    daemon.process.send_signal(signal.SIGTERM)
    reader.join(timeout=120)
    assert not reader.is_alive(), "the stream did not end when the daemon stopped"
    ended = received[-1]
    assert isinstance(ended, varlink.VarlinkError), received
    assert ended.error() == INTERFACE + ".DaemonStopping"
    assert daemon.process.wait(timeout=120) == 0
    watcher.close()
