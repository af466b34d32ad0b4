#!/usr/bin/env python3
"""A weather-like widget provider, on the widgetkit SDK (python/ in the repository).

The location comes from, in order:
  1. the widget's configuration ("location"),
  2. the group's shared data, written by the app (`weather-app Paris`, `widgetctl data set weather location Paris`),
     if it is younger than "max-age" hours,
  3. a fallback default.
This is the "last location the app used, with a timestamp check" of seeds 000 and 003: a widget added before the
app ever ran, or long after, still shows something meaningful.

There is no network here, so conditions are computed from the location and the hour: the point of the example is
the data flow, not meteorology.
"""
import math
import zlib
from datetime import timedelta, timezone

from widgetkit import Entry, Option, Timeline, TimelineProvider, at_end, main

FALLBACK_LOCATION = "Cupertino"
DEFAULT_MAX_AGE_HOURS = 24
HOURS_AHEAD = 6
CITIES = ["Amsterdam", "Berlin", "Cupertino", "Lisbon", "London", "Lyon", "Madrid", "Oslo", "Paris", "Parma",
          "Rome", "Tokyo", "Vienna"]
CONDITIONS = ["sunny", "partly cloudy", "cloudy", "rain", "showers", "windy"]
# The views' symbol for each condition (docs/views.md lists the symbols).
SYMBOLS = {"sunny": "sun", "partly cloudy": "cloud.sun", "cloudy": "cloud", "rain": "cloud.rain",
           "showers": "umbrella", "windy": "wind"}
FORECAST_HOURS = 3


def conditions(location, date):
    seed = zlib.crc32(location.lower().encode("utf-8"))
    hour = date.hour + date.timetuple().tm_yday * 24
    temperature = 12 + (seed % 15) + 6 * math.sin((date.hour - 9) / 24 * 2 * math.pi)
    condition = CONDITIONS[(seed + hour // 3) % len(CONDITIONS)]
    return {"temperature": round(temperature, 1), "condition": condition, "symbol": SYMBOLS[condition]}


def forecast(location, date):
    """The next hours after `date`, for the medium view's forecast."""
    start = date.replace(minute=0, second=0, microsecond=0)
    hours = []
    for n in range(1, FORECAST_HOURS + 1):
        hour = start + timedelta(hours=n)
        expected = conditions(location, hour)
        hours.append({"date": hour.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                      "temperature": expected["temperature"], "symbol": expected["symbol"]})
    return hours


class Weather(TimelineProvider):
    def shared_location(self, context, max_age_hours=DEFAULT_MAX_AGE_HOURS):
        """The app's last location from the group data, or None when missing or stale."""
        shared = context.group_value("location", max_age=timedelta(hours=max_age_hours))
        return shared.value if shared and isinstance(shared.value, str) and shared.value else None

    def location(self, context):
        """The location to show and where it came from: configuration, shared or fallback."""
        configured = context.configuration.get("location")
        if isinstance(configured, str) and configured:
            return configured, "configuration"
        max_age = context.configuration.get("max-age")
        if not isinstance(max_age, int) or isinstance(max_age, bool) or not 0 <= max_age <= 24 * 365:
            max_age = DEFAULT_MAX_AGE_HOURS
        shared = self.shared_location(context, max_age)
        return (shared, "shared") if shared else (FALLBACK_LOCATION, "fallback")

    def entry(self, context, date):
        location, source = self.location(context)
        return Entry(date, dict(location=location, source=source, hours=forecast(location, date),
                                **conditions(location, date)))

    def placeholder(self, context):
        return Entry(context.now, {"location": "—", "source": "placeholder", "temperature": None, "condition": None})

    def snapshot(self, context):
        return self.entry(context, context.now)

    def timeline(self, context):
        start = context.now.replace(minute=0, second=0, microsecond=0)
        hours = [start + timedelta(hours=n) for n in range(1, HOURS_AHEAD + 1)]
        # Entries at least five minutes apart, as WidgetKit advises.
        dates = [context.now] + [hour for hour in hours if hour - context.now >= timedelta(minutes=5)]
        return Timeline([self.entry(context, date) for date in dates], at_end())

    def defaults(self, context):
        return {"location": self.shared_location(context) or FALLBACK_LOCATION}

    def options(self, context):
        last = self.shared_location(context)
        names = ([last] if last and last not in CITIES else []) + CITIES
        return [Option(name, name, "last used" if name == last else None)
                for name in names if context.search.lower() in name.lower()]


if __name__ == "__main__":
    main(Weather())
