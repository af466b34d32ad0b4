"""What a provider answers: entries with an optional relevance, a timeline and its reload policy, options."""
from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any, Iterable, Optional

from .dates import format_date, require_aware

__all__ = ["Relevance", "Entry", "ReloadPolicy", "at_end", "after", "never", "Timeline", "Option"]

MAXIMUM_ENTRIES = 1000


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Relevance:
    """WidgetKit's `TimelineEntryRelevance`: a score on the widget's own scale (<= 0: not relevant now) and how long
    after the entry's date it holds (seconds or a timedelta; 0: until the next entry with a relevance)."""

    __slots__ = ("score", "duration")

    def __init__(self, score: float, duration: "float | timedelta" = 0):
        if not _is_number(score) or not math.isfinite(score):
            raise ValueError("relevance score must be a finite number, found %r" % (score,))
        if isinstance(duration, timedelta):
            duration = duration.total_seconds()
        if not _is_number(duration) or not math.isfinite(duration) or duration < 0:
            raise ValueError("relevance duration must be a number of seconds >= 0, found %r" % (duration,))
        self.score = score
        self.duration = duration

    def to_json(self) -> dict:
        return {"score": self.score, "duration": self.duration}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Relevance) and (self.score, self.duration) == (other.score, other.duration)

    def __repr__(self) -> str:
        return "Relevance(score=%r, duration=%r)" % (self.score, self.duration)


class Entry:
    """One entry of a timeline: the date it becomes current (timezone-aware), its content (any JSON value: dicts,
    lists, strings, numbers, booleans, None, and aware datetimes, written as RFC 3339) and an optional relevance."""

    __slots__ = ("date", "content", "relevance")

    def __init__(self, date: datetime, content: Any, relevance: Optional[Relevance] = None):
        self.date = require_aware(date, "entry date")
        if relevance is not None and not isinstance(relevance, Relevance):
            raise TypeError("relevance must be a Relevance, found %s" % type(relevance).__name__)
        self.content = content
        self.relevance = relevance

    def to_json(self) -> dict:
        answer = {"date": format_date(self.date), "content": self.content}
        if self.relevance is not None:
            answer["relevance"] = self.relevance.to_json()
        return answer

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Entry) and (self.date, self.content, self.relevance) == (
            other.date, other.content, other.relevance)

    def __repr__(self) -> str:
        return "Entry(%s, %r%s)" % (format_date(self.date), self.content,
                                    "" if self.relevance is None else ", %r" % (self.relevance,))


class ReloadPolicy:
    """WidgetKit's `TimelineReloadPolicy`: the earliest time the daemon asks for a new timeline. Make one with
    `at_end()`, `after(date)` or `never()`."""

    __slots__ = ("name", "date")

    def __init__(self, name: str, date: Optional[datetime] = None):
        if name not in ("atEnd", "after", "never"):
            raise ValueError("a reload policy is atEnd, after or never, found %r" % (name,))
        if (name == "after") != (date is not None):
            raise ValueError("only the after policy has a date")
        self.name = name
        self.date = None if date is None else require_aware(date, "after() date")

    def to_json(self) -> Any:
        return {"after": format_date(self.date)} if self.name == "after" else self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ReloadPolicy) and (self.name, self.date) == (other.name, other.date)

    def __repr__(self) -> str:
        return "after(%s)" % format_date(self.date) if self.name == "after" else \
            {"atEnd": "at_end()", "never": "never()"}[self.name]


def at_end() -> ReloadPolicy:
    """Ask again once the last entry's date has passed."""
    return ReloadPolicy("atEnd")


def after(date: datetime) -> ReloadPolicy:
    """Ask again at `date` (timezone-aware)."""
    return ReloadPolicy("after", date)


def never() -> ReloadPolicy:
    """Ask again only when something asks: an app's reload, a group data write with a reload."""
    return ReloadPolicy("never")


class Timeline:
    """WidgetKit's `Timeline`: 1 to 1000 entries at distinct instants, in any order, and a reload policy."""

    __slots__ = ("entries", "policy")

    def __init__(self, entries: Iterable[Entry], policy: Optional[ReloadPolicy] = None):
        entries = list(entries)
        if not entries:
            raise ValueError("a timeline needs at least one entry")
        if len(entries) > MAXIMUM_ENTRIES:
            raise ValueError("too many entries: %d (limit %d)" % (len(entries), MAXIMUM_ENTRIES))
        seen = {}
        for index, entry in enumerate(entries):
            if not isinstance(entry, Entry):
                raise TypeError("entry %d must be an Entry, found %s" % (index, type(entry).__name__))
            if entry.date in seen:
                raise ValueError("entry %d: duplicate date %s (same as entry %d)"
                                 % (index, format_date(entry.date), seen[entry.date]))
            seen[entry.date] = index
        if policy is None:
            policy = at_end()
        if not isinstance(policy, ReloadPolicy):
            raise TypeError("policy must be at_end(), after(date) or never(), found %r" % (policy,))
        self.entries = entries
        self.policy = policy

    def to_json(self) -> dict:
        return {"entries": [entry.to_json() for entry in self.entries], "policy": self.policy.to_json()}

    def __repr__(self) -> str:
        return "Timeline(%r, %r)" % (self.entries, self.policy)


class Option:
    """One choice for a parameter whose manifest says `options = "dynamic"`: a value (any JSON value but None), a
    title, and an optional subtitle."""

    __slots__ = ("value", "title", "subtitle")

    def __init__(self, value: Any, title: Optional[str] = None, subtitle: Optional[str] = None):
        if value is None:
            raise ValueError("an option's value cannot be None")
        if title is None:
            title = value if isinstance(value, str) else str(value)
        if not isinstance(title, str) or (subtitle is not None and not isinstance(subtitle, str)):
            raise TypeError("an option's title and subtitle are strings")
        self.value = value
        self.title = title
        self.subtitle = subtitle

    def to_json(self) -> dict:
        answer = {"value": self.value, "title": self.title}
        if self.subtitle is not None:
            answer["subtitle"] = self.subtitle
        return answer

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and (self.value, self.title, self.subtitle) == (
            other.value, other.title, other.subtitle)

    def __repr__(self) -> str:
        return "Option(%r, %r%s)" % (self.value, self.title, "" if self.subtitle is None else ", %r" % self.subtitle)
