import json
import os
import socket
from datetime import datetime, timezone

import pytest

from widgetkit.varlink import Connection
from widgetkit import (ConnectionFailed, DaemonNotRunning, InvalidParameter, PermissionDenied, ReloadDecision,
                       UnknownKind, UnknownWidget, WidgetCenter, WidgetCenterError, WidgetInfo)

DECISIONS = {"decisions": [
    {"widget": "w1", "decision": "ran", "at": "2026-01-05T08:00:00Z", "because": None},
    {"widget": "w2", "decision": "deferred", "at": "2026-01-05T08:05:00Z", "because": "floor"},
]}


def test_reload_timelines_sends_the_kind_and_returns_each_widgets_decision(fake_daemon):
    daemon = fake_daemon(lambda method, parameters: {"parameters": DECISIONS})
    decisions = WidgetCenter(daemon.path).reload_timelines("weather")
    assert daemon.calls == [{"method": "io.widgetscheduler.Scheduler.Reload", "parameters": {"kind": "weather"}}]
    assert decisions == [
        ReloadDecision("w1", "ran", datetime(2026, 1, 5, 8, tzinfo=timezone.utc)),
        ReloadDecision("w2", "deferred", datetime(2026, 1, 5, 8, 5, tzinfo=timezone.utc), "floor"),
    ]
    assert [str(decision) for decision in decisions] == [
        "w1: ran at 2026-01-05T08:00:00Z", "w2: deferred until 2026-01-05T08:05:00Z (floor)"]


def test_foreground_and_all_are_sent_as_the_daemon_names_them(fake_daemon):
    daemon = fake_daemon(lambda method, parameters: {"parameters": {"decisions": []}})
    center = WidgetCenter(daemon.path)
    center.reload_timelines("weather", foreground=True)
    center.reload_all_timelines()
    center.reload_all_timelines(foreground=True)
    assert [call["parameters"] for call in daemon.calls] == [
        {"kind": "weather", "foreground": True}, {"all": True}, {"all": True, "foreground": True}]


def test_current_configurations_lists_each_placed_widget(fake_daemon):
    widget = {"id": "w1", "kind": "weather", "family": "systemSmall", "configuration": {"location": "Oslo"},
              "state": "idle", "tokens": 40, "currentEntry": None}
    daemon = fake_daemon(lambda method, parameters: {"parameters": {"widgets": [widget]}})
    assert WidgetCenter(daemon.path).current_configurations() == [
        WidgetInfo("w1", "weather", "systemSmall", {"location": "Oslo"})]
    assert daemon.calls[0]["method"] == "io.widgetscheduler.Scheduler.List"


@pytest.mark.parametrize("name, parameters, kind, message", [
    ("io.widgetscheduler.Scheduler.PermissionDenied", {"method": "Reload", "reason": "Reload needs root"},
     PermissionDenied, "permission denied: Reload needs root"),
    ("io.widgetscheduler.Scheduler.UnknownKind", {"kind": "wether"}, UnknownKind, 'unknown kind "wether"'),
    ("io.widgetscheduler.Scheduler.UnknownWidget", {"id": "w9"}, UnknownWidget, 'unknown widget "w9"'),
    ("io.widgetscheduler.Scheduler.InvalidParameter", {"parameter": "kind", "reason": "give exactly one"},
     InvalidParameter, 'invalid parameter "kind": give exactly one'),
    # The standard name, which issue 30 moves the daemon to, is the same exception.
    ("org.varlink.service.InvalidParameter", {"parameter": "kind"}, InvalidParameter, 'invalid parameter "kind"'),
    ("io.widgetscheduler.Scheduler.TooManyConnections", {"limit": 4096}, WidgetCenterError,
     "refused: the daemon already serves 4096 connections (max-connections)"),
    ("io.widgetscheduler.Scheduler.TooManyConnections", {"limit": 64, "uid": 1000}, WidgetCenterError,
     "refused: uid 1000 already has 64 connections to the daemon open (max-connections-per-user)"),
    ("io.widgetscheduler.Scheduler.ConnectionTimedOut", {"reason": "idle", "seconds": 60}, WidgetCenterError,
     "closed by the daemon: no call for 60 s (idle-timeout)"),
    ("io.widgetscheduler.Scheduler.RateLimited", {"method": "Options", "uid": 1000, "perMinute": 30,
                                                   "retryAfter": 1.5}, WidgetCenterError,
     "refused: uid 1000 asked Options for more than 30 provider runs a minute (options-rate); ask again in 1.5 s"),
    ("io.widgetscheduler.Scheduler.BufferFull", {"buffer": "streamBacklog", "limit": 4194304}, WidgetCenterError,
     "dropped by the daemon: more than 4194304 bytes of replies waited unread (watch-backlog-limit)"),
    # An error the SDK has never heard of keeps its name and the daemon's parameters.
    ("io.widgetscheduler.Scheduler.TooManyRequests", {"retryAfter": 2}, WidgetCenterError,
     'io.widgetscheduler.Scheduler.TooManyRequests {"retryAfter":2}'),
])
def test_each_daemon_error_raises_its_exception_with_the_daemons_words(fake_daemon, name, parameters, kind, message):
    daemon = fake_daemon(lambda method, _: {"error": name, "parameters": parameters})
    with pytest.raises(kind) as raised:
        WidgetCenter(daemon.path).reload_timelines("weather")
    assert str(raised.value) == message
    assert (raised.value.name, raised.value.parameters) == (name, parameters)


def test_no_daemon_at_the_socket_raises_daemon_not_running(tmp_path):
    path = str(tmp_path / "control.socket")
    with pytest.raises(DaemonNotRunning) as raised:
        WidgetCenter(path).reload_all_timelines()
    assert str(raised.value) == "widget-scheduler is not running (no daemon at %s: No such file or directory)" % path


@pytest.mark.parametrize("reply", [b"", b"{not json", b'{"parameters": []}',
                                   b'{"parameters": {"decisions": [{"widget": "w1"}]}}'])
def test_a_reply_it_cannot_read_is_a_connection_failure(fake_daemon, reply):
    daemon = fake_daemon(lambda method, parameters: reply)
    with pytest.raises(ConnectionFailed):
        WidgetCenter(daemon.path).reload_all_timelines()


def test_the_socket_comes_from_the_environment_unless_named(fake_daemon, monkeypatch):
    daemon = fake_daemon(lambda method, parameters: {"parameters": DECISIONS})
    monkeypatch.setenv("WIDGET_SCHEDULER_SOCKET", daemon.path)
    assert WidgetCenter().socket_path == daemon.path
    assert len(WidgetCenter().reload_timelines("weather")) == 2
    assert WidgetCenter("/elsewhere").socket_path == "/elsewhere"
    monkeypatch.delenv("WIDGET_SCHEDULER_SOCKET")
    assert WidgetCenter().socket_path == "/run/widget-scheduler/control.socket"


def test_a_refusal_sent_before_the_call_is_raised_by_name(tmp_path):
    # A daemon over its connection limit answers before reading and closes: the call fails to go out (EPIPE), and the
    # refusal already in the socket is what the caller hears.
    path = str(tmp_path / "control.socket")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(1)
    refusal = {"error": "io.widgetscheduler.Scheduler.TooManyConnections", "parameters": {"limit": 64, "uid": 1000}}
    with Connection(path) as connection:
        accepted, _ = listener.accept()
        accepted.sendall(json.dumps(refusal).encode() + b"\0")
        accepted.close()
        with pytest.raises(WidgetCenterError) as raised:
            connection.call("Status")
    listener.close()
    assert str(raised.value) == ("refused: uid 1000 already has 64 connections to the daemon open "
                                 "(max-connections-per-user)")
