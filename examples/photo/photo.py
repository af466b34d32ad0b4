#!/usr/bin/env python3
"""Photo of the day: a widget provider on the widgetkit SDK (python/ in the repository) that shows a picture.

Seed 001's widget downloads a picture while it builds its timeline; this one takes it from the app instead, which
needs no network. The app (examples/photo-app: `photo-app FOLDER`) puts each picture of a folder in the "photos"
group's data, under the key `photo.FILENAME`, its bytes in base64. The group's data reaches the provider as files,
one per key, in `context.data_directory`: that directory is the album.

Each day shows the next picture of the album, in the order of their names. A timeline has today's entry and
tomorrow's, dated at the local midnight, and each entry names the picture it shows; `save_image` writes it in the
run's image directory, where the daemon checks it, stores it by its hash and gives hosts its bytes. A picture the
daemon would refuse (not a PNG, JPEG or WebP image by its bytes, or larger than 2 MiB) is left out of the album here,
with a line on stderr, so that one bad picture does not keep the others from showing.
"""
import base64
import binascii
import os
import sys
from datetime import datetime, time, timedelta

from widgetkit import Entry, Timeline, TimelineProvider, at_end, main

KEY_PREFIX = "photo."
MAXIMUM_PICTURE_BYTES = 2 << 20


def picture_type(data):
    """The picture's type by its first bytes, as the daemon recognises it, or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def caption_of(name):
    """`harbour-at-dawn.jpg` -> `Harbour at dawn`."""
    words = os.path.splitext(name)[0].replace("_", " ").replace("-", " ").split()
    text = " ".join(words)
    return text[:1].upper() + text[1:] if text else name


def album(context):
    """The album's pictures, sorted by name: (name, bytes) pairs, read from the group's data."""
    directory = context.data_directory
    if not directory:
        return []
    try:
        keys = sorted(key for key in os.listdir(directory) if key.startswith(KEY_PREFIX))
    except OSError as error:
        print("photo: cannot read the album in %s: %s" % (directory, error.strerror), file=sys.stderr)
        return []
    pictures = []
    for key in keys:
        name = key[len(KEY_PREFIX):]
        stored = context.group_value(key)
        if not name or stored is None or not isinstance(stored.value, str):
            continue
        try:
            data = base64.b64decode(stored.value, validate=True)
        except (binascii.Error, ValueError):
            print("photo: %s is not base64; left out" % key, file=sys.stderr)
            continue
        if picture_type(data) is None or len(data) > MAXIMUM_PICTURE_BYTES:
            print("photo: %s is not a PNG, JPEG or WebP picture of at most 2 MiB; left out" % key, file=sys.stderr)
            continue
        pictures.append((name, data))
    return pictures


def local_midnight_after(date):
    """The first local midnight after `date`, as an aware datetime."""
    # A naive datetime is local time to astimezone(), with tomorrow's offset should daylight saving time change.
    return datetime.combine(date.astimezone().date() + timedelta(days=1), time(0)).astimezone()


class PhotoOfTheDay(TimelineProvider):
    def entry(self, context, pictures, date):
        if not pictures:
            return Entry(date, {"caption": "No pictures yet", "hint": "photo-app FOLDER adds them"})
        day = date.astimezone().date()
        index = day.toordinal() % len(pictures)
        name, data = pictures[index]
        return Entry(date, {"photo": context.save_image(data, name), "caption": caption_of(name),
                            "position": "%d of %d" % (index + 1, len(pictures)), "day": day.isoformat()})

    def placeholder(self, context):
        return Entry(context.now, {"caption": "Photo of the day"})

    def snapshot(self, context):
        return self.entry(context, album(context), context.now)

    def timeline(self, context):
        pictures = album(context)
        tomorrow = local_midnight_after(context.now)
        entries = [self.entry(context, pictures, context.now)]
        # Entries at least five minutes apart, as WidgetKit advises: in the last minutes of a day, the next timeline
        # (due at this one's end) brings tomorrow's picture.
        if tomorrow - context.now >= timedelta(minutes=5):
            entries.append(self.entry(context, pictures, tomorrow))
        return Timeline(entries, at_end())


if __name__ == "__main__":
    main(PhotoOfTheDay())
