#!/usr/bin/env python3
"""Quote of the hour: a minimal Python widget provider (protocol v1), standard library only.

One entry per hour for the next six hours, each with the quote of that hour for the chosen topic.
"""
import json
import sys
from datetime import datetime, timedelta, timezone

QUOTES = {
    "science": [
        ("Nothing in life is to be feared, it is only to be understood.", "Marie Curie"),
        ("The important thing is not to stop questioning.", "Albert Einstein"),
        ("Somewhere, something incredible is waiting to be known.", "Carl Sagan"),
        ("Science is a way of thinking much more than it is a body of knowledge.", "Carl Sagan"),
    ],
    "literature": [
        ("It is never too late to be what you might have been.", "George Eliot"),
        ("Not all those who wander are lost.", "J. R. R. Tolkien"),
        ("We read to know we are not alone.", "William Nicholson"),
    ],
}
HOURS_AHEAD = 6


def parse_date(text):
    if not isinstance(text, str):
        return None
    try:
        date = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return date if date.tzinfo is not None else None


def format_date(date):
    return date.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def quote_entry(topic, date, hour):
    quotes = QUOTES[topic]
    text, author = quotes[int(hour.timestamp() // 3600) % len(quotes)]
    return {"date": format_date(date), "content": {"topic": topic, "quote": text, "author": author}}


def answer(request):
    kind = request.get("request")
    now = parse_date((request.get("context") or {}).get("now")) or datetime.now(timezone.utc)
    configuration = (request.get("widget") or {}).get("configuration") or {}
    topic = configuration.get("topic") if configuration.get("topic") in QUOTES else "science"
    hour = now.replace(minute=0, second=0, microsecond=0)
    if kind == "timeline":
        entries = [quote_entry(topic, now, hour)]
        later = [hour + timedelta(hours=n) for n in range(1, HOURS_AHEAD + 1)]
        # Entries at least five minutes apart, as WidgetKit advises.
        entries += [quote_entry(topic, date, date) for date in later if date - now >= timedelta(minutes=5)]
        return {"entries": entries, "policy": "atEnd"}
    if kind == "snapshot":
        return {"entry": quote_entry(topic, now, hour)}
    if kind == "placeholder":
        return {"entry": {"date": format_date(now), "content": {"topic": topic, "quote": "…", "author": ""}}}
    if kind == "defaults":
        return {"configuration": {"topic": "science"}}
    if kind == "options":
        search = (request.get("search") or "").lower()
        return {"options": [{"value": name, "title": name.capitalize()} for name in sorted(QUOTES) if search in name]}
    raise ValueError("unknown request %r" % kind)


def main():
    try:
        request = json.load(sys.stdin)
        if not isinstance(request, dict) or request.get("protocol") != 1:
            raise ValueError("not a protocol 1 request")
        result = answer(request)
    except ValueError as error:
        print("quote: %s" % error, file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
