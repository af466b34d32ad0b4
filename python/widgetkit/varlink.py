"""A blocking Varlink client for the daemon's control socket: JSON messages ended by a NUL byte."""
from __future__ import annotations

import errno
import json
import os
import socket
from typing import Any, Dict, Optional

from .errors import INTERFACE, ConnectionFailed, DaemonNotRunning, PermissionDenied, error_from_reply

__all__ = ["SOCKET_ENVIRONMENT_VARIABLE", "DEFAULT_SOCKET_PATH", "socket_path", "Connection"]

SOCKET_ENVIRONMENT_VARIABLE = "WIDGET_SCHEDULER_SOCKET"
DEFAULT_SOCKET_PATH = "/run/widget-scheduler/control.socket"
# The largest reply read: a List of 100 000 widgets is about 28 MB.
MAXIMUM_REPLY_SIZE = 256 << 20


def socket_path(path: Optional[str] = None) -> str:
    """The socket to use: `path` if given, else $WIDGET_SCHEDULER_SOCKET, else the system socket."""
    return path or os.environ.get(SOCKET_ENVIRONMENT_VARIABLE) or DEFAULT_SOCKET_PATH


class Connection:
    """One connection to the daemon, for a few calls in a row; use it in a `with` block."""

    def __init__(self, path: Optional[str] = None, timeout: float = 30.0):
        self.path = socket_path(path)
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._socket.settimeout(timeout)
        self._inbox = bytearray()
        try:
            self._socket.connect(self.path)
        except OSError as error:
            self._socket.close()
            reason = os.strerror(error.errno) if error.errno else str(error)
            if error.errno in (errno.ENOENT, errno.ECONNREFUSED, errno.ENOTDIR):
                raise DaemonNotRunning(self.path, reason) from None
            if error.errno in (errno.EACCES, errno.EPERM):
                raise PermissionDenied("cannot connect to %s: %s" % (self.path, reason)) from None
            raise ConnectionFailed("connect %s: %s" % (self.path, reason)) from None

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def close(self) -> None:
        self._socket.close()

    def call(self, method: str, parameters: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Calls `method` of the daemon's interface (e.g. "Reload") and returns the reply's parameters; an error
        reply raises its WidgetCenterError."""
        message = {"method": INTERFACE + "." + method, "parameters": parameters or {}}
        try:
            self._socket.sendall(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\0")
            reply = self._receive()
        except socket.timeout:
            raise ConnectionFailed("no answer from the daemon within %g s" % self._socket.gettimeout()) from None
        except OSError as error:
            if error.errno in (errno.EPIPE, errno.ECONNRESET):
                refusal = self._refusal()
                if refusal is not None:
                    raise refusal from None
                raise ConnectionFailed("the daemon closed the connection before answering") from None
            raise ConnectionFailed("%s: %s" % (self.path, os.strerror(error.errno) if error.errno else error)) \
                from None
        if not isinstance(reply, dict):
            raise ConnectionFailed("unexpected reply from the daemon: %.200r" % (reply,))
        if reply.get("error") is not None:
            raise error_from_reply(str(reply["error"]), reply.get("parameters"))
        parameters = reply.get("parameters", {})
        if not isinstance(parameters, dict):
            raise ConnectionFailed("unexpected reply from the daemon: %.200r" % (reply,))
        return parameters

    def _refusal(self) -> Optional[Exception]:
        """The daemon closed the connection before the call went out. One that refuses a connection (too many) or
        drops it (a timeout, its buffers) says why first: that error, read from what already came, without waiting."""
        try:
            self._socket.setblocking(False)
            while len(self._inbox) < 65536:
                chunk = self._socket.recv(65536)
                if not chunk:
                    break
                self._inbox += chunk
        except OSError:
            pass
        end = self._inbox.find(b"\0")
        if end < 0:
            return None
        try:
            reply = json.loads(bytes(self._inbox[:end]).decode("utf-8"))
        except ValueError:
            return None
        if isinstance(reply, dict) and reply.get("error") is not None:
            return error_from_reply(str(reply["error"]), reply.get("parameters"))
        return None

    def _receive(self) -> Any:
        while True:
            end = self._inbox.find(b"\0")
            if end >= 0:
                message = bytes(self._inbox[:end])
                del self._inbox[:end + 1]
                try:
                    return json.loads(message.decode("utf-8"))
                except ValueError:
                    raise ConnectionFailed("unexpected reply from the daemon: %.200r" % message) from None
            if len(self._inbox) > MAXIMUM_REPLY_SIZE:
                raise ConnectionFailed("reply larger than %d bytes" % MAXIMUM_REPLY_SIZE)
            chunk = self._socket.recv(65536)
            if not chunk:
                raise ConnectionFailed("the daemon closed the connection before answering")
            self._inbox += chunk
