import io
import json
import os
from datetime import datetime, timedelta, timezone

import pytest

from widgetkit import Entry, Option, Relevance, Timeline, TimelineProvider, answer, main, never
from widgetkit.provider import encode_answer

NOW = datetime(2026, 1, 5, 8, tzinfo=timezone.utc)


def request(request_kind="timeline", **fields):
    message = {"protocol": 1, "request": request_kind, "kind": "demo",
               "widget": {"id": "w1", "family": "systemMedium", "configuration": {"city": "Oslo"}},
               "context": {"now": "2026-01-05T08:00:00Z", "isPreview": False, "reason": "explicit"}}
    message.update(fields)
    return message


def run(provider, message):
    """Runs main() on `message` (a dict, or raw text); returns (status, stdout, stderr)."""
    stdin = io.StringIO(message if isinstance(message, str) else json.dumps(message))
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(provider, stdin=stdin, stdout=stdout, stderr=stderr, exit=False)
    return status, stdout.getvalue(), stderr.getvalue()


class Hourly(TimelineProvider):
    def timeline(self, context):
        return Timeline([Entry(context.now + timedelta(hours=n), {"n": n, "city": context.configuration["city"]})
                         for n in (2, 0, 1)], never())


def test_main_writes_the_timeline_as_one_json_line_and_exits_0():
    status, stdout, stderr = run(Hourly(), request())
    assert (status, stderr) == (0, "")
    assert stdout.endswith("\n") and stdout.count("\n") == 1
    answer = json.loads(stdout)
    assert answer["policy"] == "never"
    assert [entry["content"]["n"] for entry in answer["entries"]] == [2, 0, 1]


def test_snapshot_and_placeholder_default_to_the_earliest_entry():
    for kind in ("snapshot", "placeholder"):
        status, stdout, _ = run(Hourly(), request(kind))
        assert status == 0
        assert json.loads(stdout) == {"entry": {"date": "2026-01-05T08:00:00Z", "content": {"n": 0, "city": "Oslo"}}}


def test_defaults_and_options_default_to_none():
    assert answer(Hourly(), request("defaults")) == {"configuration": {}}
    assert answer(Hourly(), request("options", parameter="city")) == {"options": []}


class Cities(TimelineProvider):
    def timeline(self, context):
        return Timeline([Entry(context.now, context.search)])

    def defaults(self, context):
        return {"city": "Lyon"}

    def options(self, context):
        return [Option("paris", "Paris", "France"), "Parma"] if context.parameter == "city" else []


def test_defaults_and_options_answer_what_the_provider_returns():
    assert answer(Cities(), request("defaults")) == {"configuration": {"city": "Lyon"}}
    assert answer(Cities(), request("options", parameter="city", search="pa")) == {"options": [
        {"value": "paris", "title": "Paris", "subtitle": "France"}, {"value": "Parma", "title": "Parma"}]}


def test_the_context_carries_the_request():
    seen = {}

    class Recorder(TimelineProvider):
        def timeline(self, context):
            seen["context"] = context
            return Timeline([Entry(context.now, None)])

    answer(Recorder(), request(context={"now": "2026-01-05T09:00:00+01:00", "isPreview": True, "reason": "policy",
                                        "dataDirectory": "/tmp/group"}))
    context = seen["context"]
    assert (context.kind, context.widget_id, context.family) == ("demo", "w1", "systemMedium")
    assert context.now == NOW and context.now.tzinfo == timezone.utc
    assert (context.is_preview, context.reason, context.data_directory) == (True, "policy", "/tmp/group")
    assert context.configuration == {"city": "Oslo"}


@pytest.mark.parametrize("message, reason", [
    ("not json", "the request is not JSON"),
    ("[1]", "the request must be a JSON object, found list"),
    (request(protocol=2), "unsupported protocol 2 (this SDK speaks 1)"),
    (request("render"), "unknown request 'render'"),
    (request(context={"now": "soon"}), "\"context.now\": not an RFC 3339 date: 'soon'"),
])
def test_a_request_it_cannot_understand_exits_2_and_says_why(message, reason):
    status, stdout, stderr = run(Hourly(), message)
    assert (status, stdout) == (2, "")
    assert "error: " + reason in stderr.splitlines()[-1]


def test_a_provider_serving_several_kinds_dispatches_on_the_kind():
    providers = {"demo": Hourly(), "cities": Cities()}
    assert answer(providers, request("defaults", kind="cities")) == {"configuration": {"city": "Lyon"}}
    status, _, stderr = run(providers, request(kind="weather"))
    assert status == 2
    assert "unknown kind 'weather' (this provider serves cities, demo)" in stderr


class Broken(TimelineProvider):
    def __init__(self, make):
        self.make = make

    def timeline(self, context):
        return self.make(context)


@pytest.mark.parametrize("make, reason", [
    (lambda context: 1 / 0, "ZeroDivisionError: division by zero"),
    (lambda context: [Entry(context.now, 1)], "TypeError: timeline() must return Timeline, returned list"),
    (lambda context: Timeline([Entry(datetime(2026, 1, 5, 8), 1)]), "ValueError: entry date has no time zone"),
    (lambda context: Timeline([Entry(context.now, float("nan"))]), "ValueError: Out of range float values"),
    (lambda context: Timeline([Entry(context.now, object())]), "TypeError: object is not a JSON value"),
    (lambda context: Timeline([Entry(context.now, {"at": datetime(2026, 1, 5)})]),
     "ValueError: date has no time zone"),
])
def test_a_failing_provider_exits_1_with_the_reason_on_stderr_and_nothing_on_stdout(make, reason):
    status, stdout, stderr = run(Broken(make), request())
    assert (status, stdout) == (1, "")
    assert "Traceback" in stderr
    assert reason in stderr.splitlines()[-1]


def test_content_may_hold_aware_datetimes_and_a_relevance():
    provider = Broken(lambda context: Timeline([Entry(context.now, {"until": context.now + timedelta(minutes=5)},
                                                      Relevance(2.5))]))
    assert json.loads(encode_answer(answer(provider, request())))["entries"][0] == {
        "date": "2026-01-05T08:00:00Z", "content": {"until": "2026-01-05T08:05:00Z"},
        "relevance": {"score": 2.5, "duration": 0}}


@pytest.fixture
def group(tmp_path):
    def write(key, text):
        (tmp_path / key).write_text(text, encoding="utf-8")
    return tmp_path, write


def test_group_value_reads_the_apps_value_with_its_date_and_honours_max_age(group):
    directory, write = group
    write("location", '{"value": "Lyon", "updatedAt": "2026-01-05T07:00:00Z"}\n')
    write("broken", "{not json")
    write("undated", '{"value": "x"}')
    seen = {}

    class Reader(TimelineProvider):
        def timeline(self, context):
            seen["context"] = context
            return Timeline([Entry(context.now, None)])

    answer(Reader(), request(context={"now": "2026-01-05T08:00:00Z", "dataDirectory": str(directory)}))
    context = seen["context"]
    value = context.group_value("location")
    assert (value.value, value.updated_at) == ("Lyon", datetime(2026, 1, 5, 7, tzinfo=timezone.utc))
    assert context.group_value("location", max_age=timedelta(hours=2)).value == "Lyon"
    assert context.group_value("location", max_age=timedelta(minutes=30)) is None
    for key in ("missing", "broken", "undated", "../location", ""):
        assert context.group_value(key) is None


def test_group_value_is_none_without_a_group():
    seen = {}

    class Reader(TimelineProvider):
        def timeline(self, context):
            seen["value"] = context.group_value("location")
            return Timeline([Entry(context.now, None)])

    answer(Reader(), request())
    assert seen["value"] is None


def test_a_print_left_in_the_provider_goes_to_the_log_not_into_the_answer():
    class Chatty(TimelineProvider):
        def timeline(self, context):
            print("fetching", context.configuration["city"])
            return Timeline([Entry(context.now, "ok")])

    status, stdout, stderr = run(Chatty(), request())
    assert status == 0
    assert json.loads(stdout)["entries"][0]["content"] == "ok"
    assert stderr == "fetching Oslo\n"
