"""RFC 3339 dates, as the daemon reads and writes them: always with a time zone."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

__all__ = ["parse_date", "format_date", "require_aware"]

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))\Z"
)


def parse_date(text: str) -> datetime:
    """Parses an RFC 3339 date-time (`2026-01-05T08:00:00Z`, `...+01:00`, with optional fractional seconds) into a
    timezone-aware datetime. Anything else, a date without an offset above all, raises ValueError."""
    if not isinstance(text, str):
        raise ValueError("expected an RFC 3339 date string, found %r" % (text,))
    match = _RFC3339.match(text)
    if match is None:
        raise ValueError("not an RFC 3339 date: %r" % text)
    year, month, day, hour, minute, second = (int(part) for part in match.group(1, 2, 3, 4, 5, 6))
    fraction = match.group(7) or ""
    microsecond = int((fraction + "000000")[:6])
    if match.group(8):
        zone = timezone.utc
    else:
        hours, minutes = int(match.group(10)), int(match.group(11))
        if hours > 23 or minutes > 59:
            raise ValueError("not an RFC 3339 date: %r (offset out of range)" % text)
        offset = timedelta(hours=hours, minutes=minutes)
        zone = timezone(-offset if match.group(9) == "-" else offset)
    try:
        return datetime(year, month, day, hour, minute, second, microsecond, tzinfo=zone)
    except ValueError as error:
        raise ValueError("not an RFC 3339 date: %r (%s)" % (text, error)) from None


def require_aware(date: datetime, what: str) -> datetime:
    """Returns `date` if it is a timezone-aware datetime; raises TypeError or ValueError naming `what` otherwise.
    A naive datetime has no instant: the daemon, the provider and the host may not share a time zone."""
    if not isinstance(date, datetime):
        raise TypeError("%s must be a datetime, found %s" % (what, type(date).__name__))
    if date.tzinfo is None or date.utcoffset() is None:
        raise ValueError("%s has no time zone (%s): use context.now, datetime.now(timezone.utc) or a datetime "
                         "with tzinfo" % (what, date.isoformat()))
    return date


def format_date(date: datetime) -> str:
    """Formats an aware datetime as the daemon writes dates: UTC with `Z`, fractional seconds only when present."""
    utc = require_aware(date, "date").astimezone(timezone.utc)
    text = "%04d-%02d-%02dT%02d:%02d:%02d" % (utc.year, utc.month, utc.day, utc.hour, utc.minute, utc.second)
    if utc.microsecond:
        text += (".%06d" % utc.microsecond).rstrip("0")
    return text + "Z"
