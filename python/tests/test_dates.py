from datetime import datetime, timedelta, timezone

import pytest

from widgetkit import format_date, parse_date
from widgetkit.dates import require_aware

UTC = timezone.utc


@pytest.mark.parametrize("text, expected", [
    ("2026-01-05T08:00:00Z", datetime(2026, 1, 5, 8, tzinfo=UTC)),
    ("2026-01-05t08:00:00z", datetime(2026, 1, 5, 8, tzinfo=UTC)),
    ("2026-01-05T09:00:00+01:00", datetime(2026, 1, 5, 8, tzinfo=UTC)),
    ("2026-01-05T03:30:00-04:30", datetime(2026, 1, 5, 8, tzinfo=UTC)),
    ("2026-01-05T08:00:00.25Z", datetime(2026, 1, 5, 8, 0, 0, 250000, tzinfo=UTC)),
    ("2026-01-05T08:00:00.1234567Z", datetime(2026, 1, 5, 8, 0, 0, 123456, tzinfo=UTC)),
])
def test_parse_date_reads_every_rfc3339_form_as_the_same_instant(text, expected):
    parsed = parse_date(text)
    assert parsed == expected
    assert parsed.tzinfo is not None


@pytest.mark.parametrize("text", [
    "2026-01-05T08:00:00",          # no offset: which instant?
    "2026-01-05",                   # no time
    "2026-01-05T08:00:00+0100",     # offset without a colon
    "2026-02-30T08:00:00Z",         # no such day
    "2026-01-05T08:00:00+24:00",    # offset out of range
    "tomorrow",
    "",
    1767600000,
])
def test_parse_date_refuses_what_the_daemon_refuses(text):
    with pytest.raises(ValueError):
        parse_date(text)


@pytest.mark.parametrize("date, text", [
    (datetime(2026, 1, 5, 8, tzinfo=UTC), "2026-01-05T08:00:00Z"),
    (datetime(2026, 1, 5, 9, tzinfo=timezone(timedelta(hours=1))), "2026-01-05T08:00:00Z"),
    (datetime(2026, 1, 5, 8, 0, 0, 250000, tzinfo=UTC), "2026-01-05T08:00:00.25Z"),
    (datetime(999, 1, 5, 8, tzinfo=UTC), "0999-01-05T08:00:00Z"),
])
def test_format_date_writes_utc_with_z_and_fractions_only_when_present(date, text):
    assert format_date(date) == text
    assert parse_date(text) == date


def test_a_naive_datetime_is_refused_with_a_hint():
    with pytest.raises(ValueError, match="has no time zone .* context.now"):
        format_date(datetime(2026, 1, 5, 8))
    with pytest.raises(TypeError, match="must be a datetime, found str"):
        require_aware("2026-01-05T08:00:00Z", "entry date")
