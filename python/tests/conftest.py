"""A fake daemon for the apps half: a Unix socket served by a thread that answers each Varlink call with a reply the
test chooses, and records the calls."""
import json
import os
import socket
import sys
import tempfile
import threading

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir))


class FakeDaemon:
    def __init__(self, answer):
        self.answer = answer
        self.calls = []
        self.connections = 0
        self.directory = tempfile.mkdtemp(prefix="widgetkit-")
        self.path = os.path.join(self.directory, "control.socket")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(8)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            with client:
                inbox = b""
                while True:
                    chunk = client.recv(65536)
                    if not chunk:
                        break
                    inbox += chunk
                    while b"\0" in inbox:
                        message, inbox = inbox.split(b"\0", 1)
                        call = json.loads(message)
                        self.calls.append(call)
                        reply = self.answer(call["method"].rsplit(".", 1)[1], call.get("parameters") or {})
                        client.sendall((reply if isinstance(reply, bytes) else json.dumps(reply).encode()) + b"\0")

    def close(self):
        # shutdown() wakes the accept() the thread waits in; close() alone would not.
        self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        self.thread.join(timeout=10)
        os.unlink(self.path)
        os.rmdir(self.directory)


@pytest.fixture
def fake_daemon():
    daemons = []

    def start(answer):
        daemon = FakeDaemon(answer)
        daemons.append(daemon)
        return daemon

    yield start
    for daemon in daemons:
        daemon.close()
