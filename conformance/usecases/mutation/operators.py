"""Generic mutation operators over one HTTP answer: each a small named function, registered in one
table (as cosmic-ray and mutmut do), that changes exactly one thing and says whether it could.

    OPERATORS["drop-member"](answer, member)  ->  True if it changed the answer

`member` is a path into the JSON body (a tuple of keys and indices; empty for operators on the
whole answer). An operator that does not apply to an answer (no such member, not JSON) returns
False and makes no mutant.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from typing import Any

__all__ = ["MEMBER_OPERATORS", "OPERATORS", "WHOLE_OPERATORS", "Answer", "members"]

Path = tuple[Any, ...]


@dataclass
class Answer:
    """One response as a mutant sees it: status, headers, body (and its JSON, when it has one)."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    delay: float = 0.0
    chunks: int = 1  # how many pieces the body is sent in (more than one: without a length)
    previous: bytes | None = None  # the body answered to the same request the time before
    index: int = 0  # how many answers its site gave before it
    _json: Any = field(default=None, repr=False)

    def json(self) -> Any:
        if self._json is None:
            self._json = json.loads(self.body)
        return self._json

    def set_json(self, value: Any) -> None:
        self._json = value
        self.body = json.dumps(value).encode()

    @property
    def media_type(self) -> str:
        for name, value in self.headers:
            if name.lower() == b"content-type":
                return value.decode("latin-1").split(";")[0].strip().lower()
        return ""

    def set_media_type(self, media: str) -> None:
        self.headers = [(n, v) for n, v in self.headers if n.lower() != b"content-type"] + [
            (b"content-type", media.encode())
        ]


def members(value: Any, at: Path = (), depth: int = 4) -> list[Path]:
    """The paths of the members of `value` (object members and array items), at most `depth`
    deep."""
    found: list[Path] = []
    if depth <= 0:
        return found
    if isinstance(value, dict):
        for key, inner in value.items():
            found += [(*at, key), *members(inner, (*at, key), depth - 1)]
    elif isinstance(value, list):
        for index, inner in enumerate(value[:3]):
            found += [(*at, index), *members(inner, (*at, index), depth - 1)]
    return found


def _edit(answer: Answer, member: Path, change: Callable[[Any, Any], bool]) -> bool:
    """Apply `change(parent, key)` at `member` of the answer's JSON; False if there is no such
    member."""
    try:
        document = copy.deepcopy(answer.json())
    except ValueError:
        return False
    parent = document
    try:
        for step in member[:-1]:
            parent = parent[step]
        parent[member[-1]]
    except (KeyError, IndexError, TypeError):
        return False
    if not change(parent, member[-1]):
        return False
    answer.set_json(document)
    return True


def drop_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        del parent[key]
        return True

    return _edit(answer, member, change)


def rename_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        if not isinstance(parent, dict):
            return False
        parent[f"{key}_renamed"] = parent.pop(key)
        return True

    return _edit(answer, member, change)


_OTHER_TYPE = {
    str: 12345,
    int: "12",
    float: "1.5",
    bool: "true",
    list: {"0": None},
    dict: ["an", "array"],
    type(None): 0,
}


def retype_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        parent[key] = copy.deepcopy(_OTHER_TYPE[type(parent[key])])
        return True

    return _edit(answer, member, change)


def empty_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        if not isinstance(parent[key], str | list | dict) or not parent[key]:
            return False
        parent[key] = type(parent[key])()
        return True

    return _edit(answer, member, change)


def null_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        if parent[key] is None:
            return False
        parent[key] = None
        return True

    return _edit(answer, member, change)


def shift_number(answer: Answer, member: Path) -> bool:
    """A number moved past any bound: integers by one past their range (here, far below), others
    negated."""

    def change(parent: Any, key: Any) -> bool:
        value = parent[key]
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        parent[key] = -value - 1
        return True

    return _edit(answer, member, change)


def reorder_array(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        value = parent[key]
        if not isinstance(value, list) or len(value) < 2 or value == value[::-1]:
            return False
        parent[key] = value[::-1]
        return True

    return _edit(answer, member, change)


def add_unknown_member(answer: Answer, member: Path) -> bool:
    def change(parent: Any, key: Any) -> bool:
        if not isinstance(parent[key], dict):
            return False
        parent[key]["x_mutant_member"] = "unexpected"
        return True

    return _edit(answer, member, change)


def swap_ids(answer: Answer, member: Path) -> bool:
    """Two agents of a document (or two items of any array of objects with ids) swap their ids."""

    def change(parent: Any, key: Any) -> bool:
        items = parent[key]
        ids = (
            [i for i, item in enumerate(items) if isinstance(item, dict) and "id" in item]
            if isinstance(items, list)
            else []
        )
        if len(ids) < 2:
            return False
        a, b = items[ids[0]], items[ids[1]]
        a["id"], b["id"] = b["id"], a["id"]
        return True

    return _edit(answer, member, change)


def change_status(answer: Answer, _: Path) -> bool:
    answer.status = 500 if 200 <= answer.status < 300 else 200
    return True


def change_media_type(answer: Answer, _: Path) -> bool:
    if answer.media_type == "text/plain":
        return False
    answer.set_media_type("text/plain")
    return True


def truncate_json(answer: Answer, _: Path) -> bool:
    if len(answer.body) < 2:
        return False
    answer.body = answer.body[: len(answer.body) // 2]
    return True


def corrupt_json(answer: Answer, _: Path) -> bool:
    if not answer.body:
        return False
    answer.body = b"{" + answer.body
    return True


def replay_stale(answer: Answer, _: Path) -> bool:
    # a stale answer is a 2xx one
    if not answer.previous or answer.previous == answer.body or not 200 <= answer.status < 300:
        return False
    answer.body = answer.previous
    return True


def delay_past_deadline(answer: Answer, _: Path) -> bool:
    answer.delay = 3.0  # past the 1 s request timeout of its run (engine.DEADLINE_MUTANT_TIMEOUT)
    return True


#: Operators on one member of the JSON body.
MEMBER_OPERATORS: dict[str, Callable[[Answer, Path], bool]] = {
    "drop-member": drop_member,
    "rename-member": rename_member,
    "retype-member": retype_member,
    "empty-member": empty_member,
    "null-member": null_member,
    "shift-number": shift_number,
    "reorder-array": reorder_array,
    "add-unknown-member": add_unknown_member,
    "swap-ids": swap_ids,
}
#: Operators on the whole answer.
WHOLE_OPERATORS: dict[str, Callable[[Answer, Path], bool]] = {
    "change-status": change_status,
    "change-media-type": change_media_type,
    "truncate-json": truncate_json,
    "corrupt-json": corrupt_json,
    "replay-stale": replay_stale,
    "delay-past-deadline": delay_past_deadline,
}
OPERATORS = {**MEMBER_OPERATORS, **WHOLE_OPERATORS}
