import math
from datetime import datetime, timedelta, timezone

import pytest

from widgetkit import Entry, Option, Relevance, Timeline, after, at_end, never

NOW = datetime(2026, 1, 5, 8, tzinfo=timezone.utc)


def test_a_timeline_answers_the_protocols_shape():
    timeline = Timeline([
        Entry(NOW, {"temperature": 7.5}, Relevance(10, timedelta(hours=1))),
        Entry(NOW + timedelta(hours=1), {"temperature": 8}),
    ], after(NOW + timedelta(hours=4)))
    assert timeline.to_json() == {
        "entries": [
            {"date": "2026-01-05T08:00:00Z", "content": {"temperature": 7.5},
             "relevance": {"score": 10, "duration": 3600.0}},
            {"date": "2026-01-05T09:00:00Z", "content": {"temperature": 8}},
        ],
        "policy": {"after": "2026-01-05T12:00:00Z"},
    }


def test_the_policies_are_written_as_the_protocol_names_them():
    assert at_end().to_json() == "atEnd"
    assert never().to_json() == "never"
    assert Timeline([Entry(NOW, None)]).policy == at_end()
    assert repr(after(NOW)) == "after(2026-01-05T08:00:00Z)"


def test_dates_must_carry_a_time_zone():
    with pytest.raises(ValueError, match="entry date has no time zone"):
        Entry(datetime(2026, 1, 5, 8), {})
    with pytest.raises(ValueError, match=r"after\(\) date has no time zone"):
        after(datetime(2026, 1, 5, 8))
    with pytest.raises(TypeError, match="entry date must be a datetime"):
        Entry("2026-01-05T08:00:00Z", {})


def test_two_entries_at_one_instant_are_refused_whatever_their_offsets():
    same_instant = datetime(2026, 1, 5, 9, tzinfo=timezone(timedelta(hours=1)))
    with pytest.raises(ValueError, match=r"entry 1: duplicate date 2026-01-05T08:00:00Z \(same as entry 0\)"):
        Timeline([Entry(NOW, 1), Entry(same_instant, 2)])


@pytest.mark.parametrize("entries, message", [
    ([], "at least one entry"),
    ([Entry(NOW + timedelta(minutes=n), n) for n in range(1001)], r"too many entries: 1001 \(limit 1000\)"),
    ([{"date": "2026-01-05T08:00:00Z"}], "entry 0 must be an Entry, found dict"),
])
def test_a_timeline_the_daemon_would_refuse_is_refused_here_first(entries, message):
    with pytest.raises((ValueError, TypeError), match=message):
        Timeline(entries)


def test_a_policy_must_be_one_of_the_three():
    with pytest.raises(TypeError, match="policy must be"):
        Timeline([Entry(NOW, 1)], "atEnd")


@pytest.mark.parametrize("score, duration", [
    (math.nan, 0), (math.inf, 0), ("high", 0), (True, 0), (1, -5), (1, math.inf), (1, timedelta(seconds=-1)),
])
def test_relevance_takes_a_finite_score_and_a_duration_of_at_least_zero(score, duration):
    with pytest.raises(ValueError):
        Relevance(score, duration)


def test_an_option_defaults_its_title_to_its_value_and_omits_a_missing_subtitle():
    assert Option("paris").to_json() == {"value": "paris", "title": "paris"}
    assert Option(3, subtitle="three").to_json() == {"value": 3, "title": "3", "subtitle": "three"}
    with pytest.raises(ValueError):
        Option(None)
