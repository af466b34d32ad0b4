"""The provider half: a `TimelineProvider` answers the daemon's requests, and `main()` runs it as a process.

The daemon starts the provider once per request, writes one JSON request on its stdin and reads one JSON answer from
its stdout (docs/provider-protocol.md). `main()` does that part: it reads the request, calls the provider's method,
checks and writes the answer, and exits 0; or it writes `error: ...` on stderr and exits 2 for a request it cannot
understand, 1 when the provider failed.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import traceback
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Union

from .dates import format_date, parse_date
from .timeline import Entry, Option, Timeline

__all__ = ["TimelineProvider", "Context", "GroupValue", "BadRequest", "ImageNotSaved", "answer", "encode_answer",
           "main"]

PROTOCOL_VERSION = 1
REQUESTS = ("timeline", "snapshot", "placeholder", "defaults", "options")


class BadRequest(ValueError):
    """A request the provider cannot understand: not JSON, another protocol version, an unknown request or kind."""


class ImageNotSaved(ValueError):
    """`Context.save_image` refused: a name that is not a plain file name, or a request without an image directory
    (placeholder, defaults and options requests have none)."""


#: The longest image file name the daemon accepts, in UTF-8 bytes.
MAXIMUM_IMAGE_NAME_BYTES = 255


class GroupValue(NamedTuple):
    """One value of the group's shared data, as the app wrote it, and when."""

    value: Any
    updated_at: datetime


class Context:
    """What the daemon tells the provider about a request (WidgetKit's `TimelineProviderContext` and more).

    - `kind`, `widget_id` (None when no widget is concerned), `family` (`systemSmall`...), `configuration` (the
      widget's parameter values by name);
    - `now`: the daemon's clock when it started the run (an aware UTC datetime): use it rather than your own clock;
    - `is_preview`: answer fast, with sample data if fetching is slow;
    - `reason`: why a timeline is asked (`initial`, `configuration`, `foreground`, `policy`, `explicit`, `retry`);
    - `data_directory`: the group's shared data, when the manifest has a `group`; read it with `group_value()`;
    - `image_directory`: where a timeline or snapshot run may write the images its entries show, when the manifest
      says `images = true` (None otherwise, and for other requests); write them with `save_image()`;
    - `parameter`, `search`: for `options`, the parameter asked about and the text the user typed.
    """

    def __init__(self, request: Mapping[str, Any]):
        context = request.get("context") or {}
        widget = request.get("widget") or {}
        if not isinstance(context, dict) or not isinstance(widget, dict):
            raise BadRequest('"context" and "widget" must be objects')
        self.request = request
        self.kind: str = request.get("kind") or ""
        self.widget_id: Optional[str] = widget.get("id")
        self.family: str = widget.get("family") or "systemSmall"
        configuration = widget.get("configuration") or {}
        if not isinstance(configuration, dict):
            raise BadRequest('"widget.configuration" must be an object')
        self.configuration: Dict[str, Any] = configuration
        try:
            self.now: datetime = parse_date(context["now"]).astimezone(timezone.utc) if "now" in context \
                else datetime.now(timezone.utc)
        except ValueError as error:
            raise BadRequest('"context.now": %s' % error) from None
        self.is_preview: bool = bool(context.get("isPreview", False))
        self.reason: Optional[str] = context.get("reason")
        self.data_directory: Optional[str] = context.get("dataDirectory")
        self.image_directory: Optional[str] = context.get("imageDirectory")
        self.parameter: Optional[str] = request.get("parameter")
        self.search: str = request.get("search") or ""

    def group_value(self, key: str, max_age: Optional[timedelta] = None) -> Optional[GroupValue]:
        """The value the app stored under `key` in the group, with when it wrote it; None when the manifest has no
        group, the key has no value or cannot be read, or (with `max_age`) the value is older than `max_age` at
        `now`. This is how a widget falls back to a default when the app never ran, or not for a long time."""
        if not self.data_directory or not key or "/" in key or key.startswith("."):
            return None
        try:
            with open(os.path.join(self.data_directory, key), encoding="utf-8") as file:
                stored = json.load(file)
            value, updated_at = stored["value"], parse_date(stored["updatedAt"])
        except (OSError, ValueError, TypeError, KeyError):
            return None
        if max_age is not None and self.now - updated_at > max_age:
            return None
        return GroupValue(value, updated_at)

    def save_image(self, data: bytes, name: str) -> str:
        """Writes `data` (a PNG, JPEG or WebP image) as `name` in this run's image directory and returns `name`, to
        put in an entry's content where a view's `image` of source `provided` reads it. Saving a name again replaces
        the file. The daemon checks the image when the run ends (type by its bytes, at most 2 MiB and 2048x2048); a
        bad one fails the run naming the entry and the file.

        Raises `ImageNotSaved` for a name with a `/`, a leading `.`, a NUL or more than 255 bytes, and in a request
        without an image directory (a placeholder, or a manifest without `images = true`); `TypeError` for data that is not
        bytes; `OSError` when the file cannot be written."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("save_image: expected the image's bytes, found %s" % type(data).__name__)
        if not isinstance(name, str) or not name or "/" in name or name.startswith(".") or "\0" in name \
                or len(name.encode("utf-8", "surrogatepass")) > MAXIMUM_IMAGE_NAME_BYTES:
            raise ImageNotSaved("save_image: expected a plain file name of 1 to %d bytes, without \"/\" or a leading "
                                "\".\", such as \"photo.jpg\"; found %r" % (MAXIMUM_IMAGE_NAME_BYTES, name))
        if not self.image_directory:
            raise ImageNotSaved("save_image: this %s request has no image directory (only timeline and snapshot "
                                "requests of a provider whose manifest says images = true have one); cannot save %r"
                                % (self.request.get("request", "?"), name))
        # The daemon reads the directory only once the provider has exited, so a plain write is whole by then.
        with open(os.path.join(self.image_directory, name), "wb") as file:
            file.write(data)
        return name

    def __repr__(self) -> str:
        return "Context(kind=%r, widget_id=%r, family=%r, now=%s, reason=%r)" % (
            self.kind, self.widget_id, self.family, format_date(self.now), self.reason)


class TimelineProvider:
    """WidgetKit's `TimelineProvider`, for one kind (or several: dispatch on `context.kind`). Override `timeline`;
    the other methods have defaults:

    - `placeholder(context) -> Entry`: shown redacted before anything else; instant, no real data. Defaults to the
      snapshot.
    - `snapshot(context) -> Entry`: for previews (`context.is_preview`). Defaults to the timeline's earliest entry.
    - `timeline(context) -> Timeline`: the entries and the reload policy.
    - `defaults(context) -> dict`: the configuration of a widget just added (the manifest's defaults fill the
      rest). Defaults to none.
    - `options(context) -> list`: the choices for `context.parameter`, filtered by `context.search`: `Option`s, or
      plain strings. Defaults to none.
    """

    def placeholder(self, context: Context) -> Entry:
        return self.snapshot(context)

    def snapshot(self, context: Context) -> Entry:
        return min(self.timeline(context).entries, key=lambda entry: entry.date)

    def timeline(self, context: Context) -> Timeline:
        raise NotImplementedError("%s does not implement timeline(context)" % type(self).__name__)

    def defaults(self, context: Context) -> Dict[str, Any]:
        return {}

    def options(self, context: Context) -> List[Union[Option, str]]:
        return []


def _expect(value: Any, kind: Any, method: str) -> Any:
    if not isinstance(value, kind):
        names = " or ".join(t.__name__ for t in (kind if isinstance(kind, tuple) else (kind,)))
        raise TypeError("%s() must return %s, returned %s" % (method, names, type(value).__name__))
    return value


def answer(provider: Union[TimelineProvider, Mapping[str, TimelineProvider]], request: Any) -> dict:
    """The answer to `request` (a decoded JSON request), as a JSON-ready dict. Raises BadRequest for a request the
    provider cannot understand; whatever the provider's method raises passes through."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object, found %s" % type(request).__name__)
    if request.get("protocol") != PROTOCOL_VERSION:
        raise BadRequest("unsupported protocol %r (this SDK speaks %d)" % (request.get("protocol"),
                                                                              PROTOCOL_VERSION))
    kind = request.get("request")
    if kind not in REQUESTS:
        raise BadRequest("unknown request %r" % (kind,))
    if isinstance(provider, Mapping):
        if request.get("kind") not in provider:
            raise BadRequest("unknown kind %r (this provider serves %s)" % (request.get("kind"),
                                                                            ", ".join(sorted(provider))))
        provider = provider[request["kind"]]
    context = Context(request)
    if kind == "timeline":
        return _expect(provider.timeline(context), Timeline, "timeline").to_json()
    if kind in ("snapshot", "placeholder"):
        return {"entry": _expect(getattr(provider, kind)(context), Entry, kind).to_json()}
    if kind == "defaults":
        return {"configuration": dict(_expect(provider.defaults(context), Mapping, "defaults"))}
    options = _expect(provider.options(context), (list, tuple), "options")
    return {"options": [(option if isinstance(option, Option) else Option(option)).to_json() for option in options]}


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_date(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (Entry, Option)):
        return value.to_json()
    raise TypeError("%s is not a JSON value" % type(value).__name__)


def encode_answer(result: dict) -> str:
    """The answer as one line of compact JSON. Content may hold aware datetimes (written as RFC 3339) and
    dataclasses; NaN, infinities and other objects raise ValueError or TypeError."""
    return json.dumps(result, ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=_json_default)


def main(provider: Union[TimelineProvider, Mapping[str, TimelineProvider]], *, stdin=None, stdout=None,
         stderr=None, exit=True) -> int:
    """Runs `provider` as the daemon expects: reads the request on stdin, writes the answer on stdout and exits 0;
    or writes `error: ...` on stderr and exits 2 (a request it cannot understand) or 1 (the provider failed).
    While the provider's methods run, `print()` writes to stderr, which the daemon logs.
    `provider` is one TimelineProvider, or a dict of them by kind. With `exit=False` it returns the status instead."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "provider"
    status = 0
    try:
        try:
            request = json.loads(stdin.read())
        except ValueError as error:
            raise BadRequest("the request is not JSON: %s" % error) from None
        # A print() left in the provider goes to the log, not into the answer.
        with contextlib.redirect_stdout(stderr):
            text = encode_answer(answer(provider, request))
    except BadRequest as error:
        print("%s: error: %s" % (name, error), file=stderr)
        status = 2
    except Exception as error:  # the provider's failure: say why, with where, and fail the run
        traceback.print_exc(file=stderr)
        print("%s: error: %s: %s" % (name, type(error).__name__, error), file=stderr)
        status = 1
    else:
        stdout.write(text + "\n")
        stdout.flush()
    if exit:
        sys.exit(status)
    return status
