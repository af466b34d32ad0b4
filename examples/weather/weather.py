#!/usr/bin/env python3
"""A weather-like widget provider (protocol v1), Python 3 standard library only.

The location comes from, in order:
  1. the widget's configuration ("location"),
  2. the group's shared data: the file DATA_DIRECTORY/location, {"value": "...", "updatedAt": "<RFC 3339>"},
     written by the app (`widgetctl data set weather location Paris`), if it is younger than "max-age" hours,
  3. a fallback default.
This is the "last location the app used, with a timestamp check" of seeds 000 and 003: a widget added before the
app ever ran, or long after, still shows something meaningful.

There is no network here, so conditions are computed from the location and the hour: the point of the example is
the data flow, not meteorology.
"""
import json
import math
import sys
import zlib
from datetime import datetime, timedelta, timezone

FALLBACK_LOCATION = "Cupertino"
DEFAULT_MAX_AGE_HOURS = 24
HOURS_AHEAD = 6
CITIES = ["Amsterdam", "Berlin", "Cupertino", "Lisbon", "London", "Lyon", "Madrid", "Oslo", "Paris", "Parma",
          "Rome", "Tokyo", "Vienna"]
CONDITIONS = ["sunny", "partly cloudy", "cloudy", "rain", "showers", "windy"]


def parse_date(text):
    """Parses an RFC 3339 date-time (Python before 3.11 does not accept a trailing Z)."""
    if not isinstance(text, str):
        return None
    try:
        date = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    return date if date.tzinfo is not None else None


def format_date(date):
    return date.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def shared_location(context, now, max_age_hours):
    """The app's last location from the group data, or None when missing, unreadable or stale."""
    directory = context.get("dataDirectory")
    if not directory:
        return None
    try:
        with open(directory.rstrip("/") + "/location", encoding="utf-8") as file:
            stored = json.load(file)
    except (OSError, ValueError):
        return None
    if not isinstance(stored, dict) or not isinstance(stored.get("value"), str) or not stored["value"]:
        return None
    updated_at = parse_date(stored.get("updatedAt"))
    if updated_at is None or now - updated_at > timedelta(hours=max_age_hours):
        return None
    return stored["value"]


def resolve_location(configuration, context, now):
    """The location to show and where it came from: configuration, shared or fallback."""
    location = configuration.get("location")
    if isinstance(location, str) and location:
        return location, "configuration"
    max_age = configuration.get("max-age", DEFAULT_MAX_AGE_HOURS)
    if not isinstance(max_age, (int, float)) or isinstance(max_age, bool):
        max_age = DEFAULT_MAX_AGE_HOURS
    shared = shared_location(context, now, max_age)
    if shared:
        return shared, "shared"
    return FALLBACK_LOCATION, "fallback"


def conditions(location, hour_date):
    seed = zlib.crc32(location.lower().encode("utf-8"))
    hour = hour_date.hour + hour_date.timetuple().tm_yday * 24
    temperature = 12 + (seed % 15) + 6 * math.sin((hour_date.hour - 9) / 24 * 2 * math.pi)
    return {"temperature": round(temperature, 1), "condition": CONDITIONS[(seed + hour // 3) % len(CONDITIONS)]}


def entry(location, source, date):
    content = {"location": location, "source": source}
    content.update(conditions(location, date))
    return {"date": format_date(date), "content": content}


def answer(request):
    kind = request.get("request")
    context = request.get("context") or {}
    widget = request.get("widget") or {}
    configuration = widget.get("configuration") or {}
    now = parse_date(context.get("now")) or datetime.now(timezone.utc)

    if kind == "placeholder":
        return {"entry": {"date": format_date(now), "content": {"location": "—", "source": "placeholder",
                                                                  "temperature": None, "condition": None}}}
    if kind == "defaults":
        location, _ = resolve_location({}, context, now)
        return {"configuration": {"location": location}}
    if kind == "options":
        search = (request.get("search") or "").lower()
        names = CITIES[:]
        last = shared_location(context, now, DEFAULT_MAX_AGE_HOURS)
        if last and last not in names:
            names.insert(0, last)
        return {"options": [{"value": name, "title": name, "subtitle": "last used" if name == last else None}
                            for name in names if search in name.lower()]}
    location, source = resolve_location(configuration, context, now)
    if kind == "snapshot":
        return {"entry": entry(location, source, now)}
    if kind == "timeline":
        start = now.replace(minute=0, second=0, microsecond=0)
        hours = [start + timedelta(hours=n) for n in range(1, HOURS_AHEAD + 1)]
        # Entries at least five minutes apart, as WidgetKit advises.
        dates = [now] + [hour for hour in hours if hour - now >= timedelta(minutes=5)]
        return {"entries": [entry(location, source, date) for date in dates], "policy": "atEnd"}
    raise ValueError("unknown request %r" % kind)


def main():
    try:
        request = json.load(sys.stdin)
        if not isinstance(request, dict) or request.get("protocol") != 1:
            raise ValueError("not a protocol 1 request")
        result = answer(request)
    except ValueError as error:
        print("weather: %s" % error, file=sys.stderr)
        return 2
    # Drop null subtitles: the protocol wants a string or nothing.
    for option in result.get("options", []):
        if option.get("subtitle") is None:
            option.pop("subtitle", None)
    json.dump(result, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
