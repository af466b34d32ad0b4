#!/usr/bin/env python3
"""The browser tests' provider (protocol v1): a timeline with a new entry every two seconds, so a test sees an
entry change arrive at its date; a relevance from the configuration, so a stack has an order to show; and a URL,
so a tap has somewhere to go (the home screen itself: the machine has no network). With `hold`, a timeline waits
until the group's data has that key (`widgetctl data set ticker KEY yes`), so a test sees the placeholder for as long
as it needs. With `fail`, a timeline run fails (exit status 3), so a test sees the failure in words."""
import json
import os
import sys
import time
from datetime import datetime, timedelta, timezone

STEP_SECONDS = 2
ENTRIES = 60


def format_date(date):
    return date.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_date(text):
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (AttributeError, ValueError):
        return datetime.now(timezone.utc)


def content(configuration, number, date):
    label = configuration.get("label") or "tick"
    return {"label": label, "n": number, "text": "%s %d" % (label, number), "at": format_date(date),
            "url": "http://127.0.0.1:8470/?tapped=%s" % label}


def hold(configuration, request):
    """Waits for the group's data to have the key `hold` names, short of the manifest's timeout."""
    key = os.path.basename(configuration.get("hold") or "")
    directory = (request.get("context") or {}).get("dataDirectory")
    if not key or not directory:
        return
    deadline = time.monotonic() + 18
    while not os.path.exists(os.path.join(directory, key)) and time.monotonic() < deadline:
        time.sleep(0.05)


def answer(request):
    kind = request.get("request")
    configuration = (request.get("widget") or {}).get("configuration") or {}
    now = parse_date((request.get("context") or {}).get("now"))
    if kind == "defaults":
        return {"configuration": {"label": "tick", "score": 0}}
    if kind == "options":
        labels = ["alpha", "bravo", "charlie", "delta", "echo"]
        search = (request.get("search") or "").lower()
        return {"options": [{"value": label, "title": label.title()} for label in labels if search in label]}
    if kind in ("snapshot", "placeholder"):
        return {"entry": {"date": format_date(now), "content": content(configuration, 0, now)}}
    if configuration.get("fail"):
        sys.stderr.write("ticker: failing on purpose\n")
        sys.exit(3)
    score = configuration.get("score") or 0
    hold(configuration, request)
    # Whole seconds on a common grid, so widgets added apart change at the same instants (a burst for the page).
    start = now.replace(microsecond=0) + timedelta(seconds=1)
    start += timedelta(seconds=(-start.second) % STEP_SECONDS)
    entries = []
    for number in range(ENTRIES):
        date = start + timedelta(seconds=number * STEP_SECONDS)
        entry = {"date": format_date(date), "content": content(configuration, number, date)}
        # With `swing`, odd entries are barely relevant: a stack holding this widget turns over every two seconds.
        entry_score = 1 if configuration.get("swing") and number % 2 else score
        if entry_score:
            entry["relevance"] = {"score": entry_score, "duration": 0}
        entries.append(entry)
    return {"entries": entries, "policy": "atEnd"}


json.dump(answer(json.load(sys.stdin)), sys.stdout)
