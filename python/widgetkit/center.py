"""The apps half: WidgetKit's WidgetCenter, over the daemon's control socket."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List, NamedTuple, Optional

from .dates import format_date, parse_date
from .errors import ConnectionFailed
from .varlink import Connection, socket_path

__all__ = ["WidgetCenter", "WidgetInfo", "ReloadDecision"]


class WidgetInfo(NamedTuple):
    """One widget the user placed: its id, kind, family and configuration (parameter values by name)."""

    id: str
    kind: str
    family: str
    configuration: Dict[str, Any]


class ReloadDecision(NamedTuple):
    """What the daemon did with a reload request for one widget: `decision` is "ran", "coalesced" or "deferred";
    `at` when the run started or starts; `because` why a deferred run waits ("floor", "budget", "backoff",
    "concurrency"), None otherwise."""

    widget: str
    decision: str
    at: datetime
    because: Optional[str] = None

    def __str__(self) -> str:
        if self.decision == "deferred":
            return "%s: deferred until %s (%s)" % (self.widget, format_date(self.at), self.because)
        if self.decision == "coalesced":
            return "%s: coalesced into the run at %s" % (self.widget, format_date(self.at))
        return "%s: %s at %s" % (self.widget, self.decision, format_date(self.at))

    @classmethod
    def from_reply(cls, decision: Any) -> "ReloadDecision":
        try:
            return cls(decision["widget"], decision["decision"], parse_date(decision["at"]), decision.get("because"))
        except (TypeError, KeyError, ValueError) as error:
            raise ConnectionFailed("unexpected decision from the daemon: %r (%s)" % (decision, error)) from None


def decisions(reply: Dict[str, Any]) -> List[ReloadDecision]:
    """The decisions of a Reload or DataSet reply."""
    return [ReloadDecision.from_reply(decision) for decision in reply.get("decisions") or []]


class WidgetCenter:
    """Asks the daemon to reload widgets after the app changed their data, and lists the widgets the user placed.

    It talks to `socket_path` if given, else $WIDGET_SCHEDULER_SOCKET, else /run/widget-scheduler/control.socket,
    waiting at most `timeout` seconds for each answer. Every call answers: a reload returns the daemon's decision for
    each widget, and a refusal raises a WidgetCenterError with the daemon's reason.
    """

    def __init__(self, socket_path: Optional[str] = None, timeout: float = 30.0):
        self._socket_path = socket_path
        self.timeout = timeout

    @property
    def socket_path(self) -> str:
        return socket_path(self._socket_path)

    def _call(self, method: str, parameters: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        with Connection(self._socket_path, self.timeout) as connection:
            return connection.call(method, parameters)

    def reload_timelines(self, kind: str, foreground: bool = False) -> List[ReloadDecision]:
        """Reloads every widget of `kind` (WidgetKit's `reloadTimelines(ofKind:)`), each within its budget and
        five-minute floor; `foreground=True` asks for a budget-exempt run (the kind's owners and root only)."""
        parameters: Dict[str, Any] = {"kind": kind}
        if foreground:
            parameters["foreground"] = True
        return decisions(self._call("Reload", parameters))

    def reload_all_timelines(self, foreground: bool = False) -> List[ReloadDecision]:
        """Reloads every widget (WidgetKit's `reloadAllTimelines()`)."""
        parameters: Dict[str, Any] = {"all": True}
        if foreground:
            parameters["foreground"] = True
        return decisions(self._call("Reload", parameters))

    def current_configurations(self) -> List[WidgetInfo]:
        """The widgets the user placed (WidgetKit's `getCurrentConfigurations`)."""
        widgets = self._call("List").get("widgets") or []
        try:
            return [WidgetInfo(widget["id"], widget["kind"], widget["family"], widget.get("configuration") or {})
                    for widget in widgets]
        except (TypeError, KeyError) as error:
            raise ConnectionFailed("unexpected widget from the daemon (%s)" % error) from None
