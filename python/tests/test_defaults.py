import pytest

from widgetkit import GroupDefaults, UnknownKey, UnknownKind

WRITTEN = {"parameters": {"updatedAt": "2026-01-05T08:00:00Z", "decisions": []}}


class Store:
    """The daemon's group data, as a fake daemon's answer."""

    def __init__(self, values=None):
        self.values = dict(values or {})

    def __call__(self, method, parameters):
        key = parameters.get("key")
        missing = {"error": "io.widgetscheduler.Scheduler.UnknownKey",
                   "parameters": {"group": parameters.get("group"), "key": key}}
        if method == "DataSet":
            self.values[key] = parameters["value"]
            decisions = [{"widget": "w1", "decision": "ran", "at": "2026-01-05T08:00:00Z", "because": None}] \
                if "reloadKind" in parameters else []
            return {"parameters": {"updatedAt": "2026-01-05T08:00:00Z", "decisions": decisions}}
        if method == "DataGet":
            if key not in self.values:
                return missing
            return {"parameters": {"key": key, "value": self.values[key], "updatedAt": "2026-01-05T08:00:00Z"}}
        if method == "DataDelete":
            if self.values.pop(key, None) is None:
                return missing
            return {"parameters": {}}
        if method == "DataList":
            return {"parameters": {"items": [{"key": k, "value": v, "updatedAt": "2026-01-05T08:00:00Z"}
                                             for k, v in sorted(self.values.items())]}}
        if method == "Reload":
            if parameters["kind"] != "forecast":
                return {"error": "io.widgetscheduler.Scheduler.UnknownKind", "parameters": {"kind": parameters["kind"]}}
            return {"parameters": {"decisions": [
                {"widget": "w2", "decision": "coalesced", "at": "2026-01-05T08:00:01Z", "because": None}]}}
        raise AssertionError(method)


def test_the_group_reads_and_writes_like_a_dict(fake_daemon):
    daemon = fake_daemon(Store())
    defaults = GroupDefaults("weather", daemon.path)
    defaults["location"] = "Paris"
    defaults["units"] = b"metric"
    assert defaults["location"] == "Paris"
    assert defaults.get("missing") is None
    assert "units" in defaults and "missing" not in defaults
    assert dict(defaults) == defaults.to_dict() == {"location": "Paris", "units": "metric"}
    assert len(defaults) == 2
    del defaults["units"]
    assert list(defaults) == ["location"]
    assert daemon.calls[0] == {"method": "io.widgetscheduler.Scheduler.DataSet",
                               "parameters": {"group": "weather", "key": "location", "value": "Paris"}}


def test_a_missing_key_is_a_key_error_with_the_daemons_words_and_remove_ignores_it(fake_daemon):
    defaults = GroupDefaults("weather", fake_daemon(Store()).path)
    with pytest.raises(KeyError) as raised:
        defaults["location"]
    assert isinstance(raised.value, UnknownKey)
    assert str(raised.value) == 'no value for key "location" in group "weather"'
    with pytest.raises(UnknownKey):
        del defaults["location"]
    defaults.remove("location")


def test_set_reloads_the_first_kind_with_the_write_and_each_further_kind_after_it(fake_daemon):
    daemon = fake_daemon(Store())
    decisions = GroupDefaults("weather", daemon.path).set("location", "Lyon",
                                                          reload_kinds=["weather", "forecast", "weather"])
    assert [str(decision) for decision in decisions] == [
        "w1: ran at 2026-01-05T08:00:00Z", "w2: coalesced into the run at 2026-01-05T08:00:01Z"]
    assert [(call["method"].rsplit(".", 1)[1], call["parameters"]) for call in daemon.calls] == [
        ("DataSet", {"group": "weather", "key": "location", "value": "Lyon", "reloadKind": "weather"}),
        ("Reload", {"kind": "forecast"}),
    ]
    assert daemon.connections == 1


def test_a_failing_further_reload_raises_after_the_write(fake_daemon):
    store = Store()
    with pytest.raises(UnknownKind, match='unknown kind "radar"'):
        GroupDefaults("weather", fake_daemon(store).path).set("location", "Lyon", reload_kinds=["weather", "radar"])
    assert store.values == {"location": "Lyon"}


@pytest.mark.parametrize("value", [42, 2.5, None, {"a": 1}, b"\xff"])
def test_values_are_text(fake_daemon, value):
    daemon = fake_daemon(Store())
    with pytest.raises((TypeError, UnicodeDecodeError)):
        GroupDefaults("weather", daemon.path)["key"] = value
    assert daemon.calls == []
