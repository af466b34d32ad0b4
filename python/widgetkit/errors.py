"""Why a call to the daemon failed: one exception class per refusal, each with the daemon's own words."""
from __future__ import annotations

import json
from typing import Any, Dict, Optional

__all__ = ["WidgetCenterError", "DaemonNotRunning", "PermissionDenied", "UnknownKind", "UnknownWidget", "UnknownKey",
           "InvalidParameter", "ConnectionFailed", "error_from_reply"]

INTERFACE = "io.widgetscheduler.Scheduler"
SERVICE = "org.varlink.service"


class WidgetCenterError(Exception):
    """A call the daemon refused, or that could not reach it. `name` is the Varlink error's name (None when the
    daemon was not reached), `parameters` its parameters, and `str(error)` the one line widgetctl prints."""

    def __init__(self, message: str, name: Optional[str] = None, parameters: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.message = message
        self.name = name
        self.parameters = dict(parameters or {})

    def __str__(self) -> str:
        return self.message


class DaemonNotRunning(WidgetCenterError):
    """Nothing listens at the socket: the daemon is not installed or its socket unit is not started."""

    def __init__(self, socket_path: str, reason: str):
        super().__init__("widget-scheduler is not running (no daemon at %s: %s)" % (socket_path, reason))
        self.socket_path = socket_path
        self.reason = reason


class PermissionDenied(WidgetCenterError):
    """The daemon refused the call (a reload or a write needs ownership of the kind, membership of the group
    widget-scheduler, or root), or this user may not open the socket. `reason` says why."""

    def __init__(self, reason: str, name: Optional[str] = None, parameters: Optional[Dict[str, Any]] = None):
        super().__init__("permission denied: %s" % reason, name, parameters)
        self.reason = reason


class UnknownKind(WidgetCenterError):
    """No manifest declares the kind."""

    def __init__(self, kind: str, name: Optional[str] = None, parameters: Optional[Dict[str, Any]] = None):
        super().__init__('unknown kind "%s"' % kind, name, parameters)
        self.kind = kind


class UnknownWidget(WidgetCenterError):
    """No widget has the id."""

    def __init__(self, widget_id: str, name: Optional[str] = None, parameters: Optional[Dict[str, Any]] = None):
        super().__init__('unknown widget "%s"' % widget_id, name, parameters)
        self.widget_id = widget_id


class UnknownKey(WidgetCenterError, KeyError):
    """The group holds no value under the key (also a KeyError, as for a dict)."""

    def __init__(self, group: str, key: str, name: Optional[str] = None,
                 parameters: Optional[Dict[str, Any]] = None):
        WidgetCenterError.__init__(self, 'no value for key "%s" in group "%s"' % (key, group), name, parameters)
        self.group = group
        self.key = key

    __str__ = WidgetCenterError.__str__


class InvalidParameter(WidgetCenterError):
    """The daemon refused a parameter: the standard org.varlink.service.InvalidParameter, with the reason the daemon
    adds (empty from another service), or the interface's own InvalidParameter of older daemons."""

    def __init__(self, parameter: str, reason: str = "", name: Optional[str] = None,
                 parameters: Optional[Dict[str, Any]] = None):
        message = 'invalid parameter "%s"' % parameter + (": %s" % reason if reason else "")
        super().__init__(message, name, parameters)
        self.parameter = parameter
        self.reason = reason


class ConnectionFailed(WidgetCenterError):
    """The conversation broke: the daemon closed the connection, did not answer in time, or answered nonsense."""


def _text(parameters: Dict[str, Any], key: str) -> str:
    value = parameters.get(key)
    if isinstance(value, str):
        return value
    return "?" if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"))


def _too_many_connections(parameters: Dict[str, Any]) -> str:
    if "uid" in parameters:
        return "refused: uid %s already has %s connections to the daemon open (max-connections-per-user)" % (
            _text(parameters, "uid"), _text(parameters, "limit"))
    if "reserved" in parameters:
        return ("refused: the daemon already serves %s connections; the %s left are kept for root and the admin "
                "group (admin-reserved-connections)" % (_text(parameters, "limit"), _text(parameters, "reserved")))
    return "refused: the daemon already serves %s connections (max-connections)" % _text(parameters, "limit")


# Errors without a class of their own, and their words (as widgetctl prints them).
_MESSAGES = {
    INTERFACE + ".ProviderFailed": lambda p: 'provider of kind "%s" failed (%s): %s' % (
        _text(p, "kind"), _text(p, "reason"), _text(p, "detail")),
    INTERFACE + ".InvalidMessage": lambda p: "invalid message: %s" % _text(p, "reason"),
    INTERFACE + ".TooManyConnections": lambda p: _too_many_connections(p),
    INTERFACE + ".ConnectionTimedOut": lambda p: (
        "closed by the daemon: a message stayed incomplete for %s s (message-timeout)" % _text(p, "seconds")
        if p.get("reason") == "incompleteMessage"
        else "closed by the daemon: no call for %s s (idle-timeout)" % _text(p, "seconds")),
    INTERFACE + ".RateLimited": lambda p: (
        "refused: uid %s asked %s for more than %s provider runs a minute (options-rate); ask again in %s s" % (
            _text(p, "uid"), _text(p, "method"), _text(p, "perMinute"), _text(p, "retryAfter"))),
    INTERFACE + ".BufferFull": lambda p: (
        "dropped by the daemon: more than %s bytes of replies waited unread (watch-backlog-limit)" % _text(p, "limit")
        if p.get("buffer") == "streamBacklog"
        else "dropped by the daemon: its buffers passed %s bytes (buffer-budget), and this connection held more "
        "than its share" % _text(p, "limit")),
    SERVICE + ".MethodNotFound": lambda p: "method not found: %s" % _text(p, "method"),
    SERVICE + ".MethodNotImplemented": lambda p: "method not implemented: %s" % _text(p, "method"),
    SERVICE + ".InterfaceNotFound": lambda p: "interface not found: %s" % _text(p, "interface"),
}


def error_from_reply(name: str, parameters: Optional[Dict[str, Any]]) -> WidgetCenterError:
    """The exception for a Varlink error reply. An error this SDK does not know keeps its name and parameters."""
    parameters = parameters if isinstance(parameters, dict) else {}
    if name == INTERFACE + ".PermissionDenied":
        return PermissionDenied(_text(parameters, "reason"), name, parameters)
    if name == INTERFACE + ".UnknownKind":
        return UnknownKind(_text(parameters, "kind"), name, parameters)
    if name == INTERFACE + ".UnknownWidget":
        return UnknownWidget(_text(parameters, "id"), name, parameters)
    if name == INTERFACE + ".UnknownKey":
        return UnknownKey(_text(parameters, "group"), _text(parameters, "key"), name, parameters)
    if name in (INTERFACE + ".InvalidParameter", SERVICE + ".InvalidParameter"):
        reason = parameters.get("reason")
        return InvalidParameter(_text(parameters, "parameter"), reason if isinstance(reason, str) else "", name,
                                parameters)
    if name in _MESSAGES:
        return WidgetCenterError(_MESSAGES[name](parameters), name, parameters)
    detail = " " + json.dumps(parameters, sort_keys=True, separators=(",", ":"), ensure_ascii=False) \
        if parameters else ""
    return WidgetCenterError(name + detail, name, parameters)
