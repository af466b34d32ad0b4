"""A shared data group (WidgetKit's App Group), as an app uses `UserDefaults(suiteName:)`, over the control socket."""
from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any, Dict, Iterable, Iterator, List, Optional

from .center import ReloadDecision, decisions
from .errors import UnknownKey
from .varlink import Connection

__all__ = ["GroupDefaults"]


class GroupDefaults(MutableMapping):
    """The group `group`'s values by key, a dict-like view of what the daemon stores.

    A provider whose manifest says `group = "weather"` reads each key with `context.group_value(key)`. Values are
    text: store a number or a structure as its text (`str(42)`, `json.dumps(...)`). The group is private: reading
    needs to be among its readers or writers (the manifest's group-reader-* and group-writer-*, by default the kinds'
    owners), writing among its writers; root, the daemon's user and the group widget-scheduler may do both.

        defaults = GroupDefaults("weather")
        defaults.set("location", "Paris", reload_kinds=["weather"])
        defaults["units"] = "metric"
        defaults.get("location")       # "Paris"; None when unset
    """

    def __init__(self, group: str, socket_path: Optional[str] = None, timeout: float = 30.0):
        self.group = group
        self._socket_path = socket_path
        self.timeout = timeout

    def _connect(self) -> Connection:
        return Connection(self._socket_path, self.timeout)

    def set(self, key: str, value: Any, reload_kinds: Iterable[str] = ()) -> List[ReloadDecision]:
        """Stores `value` (str, or UTF-8 bytes) under `key`, then reloads the widgets of each of `reload_kinds`;
        returns the reload decisions, kind after kind. The first kind is checked before the value is written; each
        further kind is reloaded after it, and the first of those to fail raises with the value written."""
        if isinstance(value, (bytes, bytearray)):
            value = bytes(value).decode("utf-8")
        if not isinstance(value, str):
            raise TypeError("group values are text: store str(value) or json.dumps(value), not %s"
                            % type(value).__name__)
        kinds: List[str] = []
        for kind in reload_kinds:
            if kind not in kinds:
                kinds.append(kind)
        parameters: Dict[str, Any] = {"group": self.group, "key": key, "value": value}
        if kinds:
            parameters["reloadKind"] = kinds[0]
        with self._connect() as connection:
            result = decisions(connection.call("DataSet", parameters))
            for kind in kinds[1:]:
                result += decisions(connection.call("Reload", {"kind": kind}))
        return result

    def remove(self, key: str) -> None:
        """Removes the value under `key`; removing a key that has no value does nothing."""
        try:
            del self[key]
        except UnknownKey:
            pass

    def to_dict(self) -> Dict[str, str]:
        """Every value of the group, by key, in one call."""
        with self._connect() as connection:
            items = connection.call("DataList", {"group": self.group}).get("items") or []
        return {item["key"]: item["value"] for item in items}

    def __getitem__(self, key: str) -> str:
        with self._connect() as connection:
            return connection.call("DataGet", {"group": self.group, "key": key})["value"]

    def __setitem__(self, key: str, value: Any) -> None:
        self.set(key, value)

    def __delitem__(self, key: str) -> None:
        with self._connect() as connection:
            connection.call("DataDelete", {"group": self.group, "key": key})

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __repr__(self) -> str:
        return "GroupDefaults(%r)" % self.group
