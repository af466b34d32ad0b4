"""widgetkit: widget-scheduler's Python SDK, with WidgetKit's names. Standard library only.

Providers (the widget's side): subclass `TimelineProvider`, answer `Timeline`s of `Entry`s with a reload policy
(`at_end()`, `after(date)`, `never()`), and call `main(provider)`.

Apps (the app's side): `WidgetCenter().reload_timelines("weather")`, `reload_all_timelines()`,
`current_configurations()`, and `GroupDefaults("weather")` for the group's shared data.

See docs/provider-protocol.md and docs/apps.md.
"""
from .center import ReloadDecision, WidgetCenter, WidgetInfo
from .dates import format_date, parse_date
from .defaults import GroupDefaults
from .errors import (ConnectionFailed, DaemonNotRunning, InvalidParameter, PermissionDenied, UnknownKey, UnknownKind,
                     UnknownWidget, WidgetCenterError)
from .provider import BadRequest, Context, GroupValue, ImageNotSaved, TimelineProvider, answer, main
from .timeline import Entry, Option, Relevance, ReloadPolicy, Timeline, after, at_end, never

__version__ = "1.0.0"

__all__ = [
    "TimelineProvider", "Context", "GroupValue", "Timeline", "Entry", "Relevance", "Option", "ReloadPolicy",
    "at_end", "after", "never", "main", "answer", "BadRequest", "ImageNotSaved", "parse_date", "format_date",
    "WidgetCenter", "WidgetInfo", "ReloadDecision", "GroupDefaults",
    "WidgetCenterError", "DaemonNotRunning", "PermissionDenied", "UnknownKind", "UnknownWidget", "UnknownKey",
    "InvalidParameter", "ConnectionFailed",
]
