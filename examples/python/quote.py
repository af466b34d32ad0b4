#!/usr/bin/env python3
"""Quote of the hour: a minimal widget provider on the widgetkit SDK (python/ in the repository).

One entry per hour for the next six hours, each with the quote of that hour for the chosen topic.
"""
from datetime import timedelta

from widgetkit import Entry, Option, Timeline, TimelineProvider, at_end, main

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


def topic(context):
    chosen = context.configuration.get("topic")
    return chosen if chosen in QUOTES else "science"


class Quote(TimelineProvider):
    def entry(self, context, date, hour):
        quotes = QUOTES[topic(context)]
        text, author = quotes[int(hour.timestamp() // 3600) % len(quotes)]
        return Entry(date, {"topic": topic(context), "quote": text, "author": author})

    def timeline(self, context):
        hour = context.now.replace(minute=0, second=0, microsecond=0)
        later = [hour + timedelta(hours=n) for n in range(1, HOURS_AHEAD + 1)]
        entries = [self.entry(context, context.now, hour)]
        # Entries at least five minutes apart, as WidgetKit advises.
        entries += [self.entry(context, date, date) for date in later if date - context.now >= timedelta(minutes=5)]
        return Timeline(entries, at_end())

    def placeholder(self, context):
        return Entry(context.now, {"topic": topic(context), "quote": "…", "author": ""})

    def defaults(self, context):
        return {"topic": "science"}

    def options(self, context):
        return [Option(name, name.capitalize()) for name in sorted(QUOTES) if context.search.lower() in name]


if __name__ == "__main__":
    main(Quote())
