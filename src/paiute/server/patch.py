"""JSON Patch (RFC 6902) between two Views: what an ``update`` frame sends instead of the state.

A client that asks for patches (``"patches": true`` in ``hello``, docs/web-protocol.md) gets
the whole View once (``welcome``) and then, with each ``update``, only what changed: a list of
RFC 6902 operations, of three kinds only:

* ``{"op": "replace", "path": P, "value": V}``: the value at ``P`` becomes ``V``;
* ``{"op": "add", "path": P, "value": V}``: a new key of an object, or, with a path ending in
  ``/-``, ``V`` appended to a list;
* ``{"op": "remove", "path": P}``: a key of an object, or an item of a list (``/0``: the first).

Paths are JSON Pointers (RFC 6901: ``/observation/hand``; ``~`` is written ``~0`` and ``/``
``~1``). :func:`diff` makes them, :func:`apply` applies them (the tests and
``benchmarks/server_load.py`` rebuild the View with it; the page has the same in
``static/js/api.js``). A patch is made only from the two Views of one seat, so it holds nothing
that seat's View would not hold (R9).
"""

from __future__ import annotations

from typing import Any

__all__ = ["PatchError", "apply", "diff", "pointer"]

Op = dict[str, Any]


class PatchError(ValueError):
    """A patch that does not fit the document (a client then asks for the whole state again)."""


def pointer(*parts: str | int) -> str:
    """The JSON Pointer of ``parts`` (RFC 6901)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def diff(old: Any, new: Any, path: str = "", ops: list[Op] | None = None) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (appended to ``ops``, which is returned).

    Objects are compared key by key (one whose keys changed for the most part is replaced
    whole, except the root); a list that only grew (or lost its first items and grew, like the
    chat's last 50 lines) gets ``add``/``remove`` of the items that changed, one with one item
    changed a patch of that item, any other changed list or value one ``replace``. The values
    in the operations are ``new``'s own objects (not copies).
    """
    if ops is None:
        ops = []
    if old is not new and old != new:
        _changed(old, new, path, ops)
    return ops


def _changed(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    """:func:`diff` of two values known to differ."""
    if type(old) is dict and type(new) is dict:
        changed = [key for key, value in new.items() if key not in old or old[key] != value]
        gone = [key for key in old if key not in new] if old.keys() != new.keys() else []
        if not path or 2 * (len(changed) + len(gone)) <= len(new):  # else one replace is shorter
            for key in changed:
                where = f"{path}/{_escape(key)}"
                if key in old:
                    _changed(old[key], new[key], where, ops)
                else:
                    ops.append({"op": "add", "path": where, "value": new[key]})
            ops.extend({"op": "remove", "path": f"{path}/{_escape(key)}"} for key in gone)
            return
    if type(old) is list and type(new) is list and old and new:
        if len(old) == len(new):
            changed = [index for index in range(len(new)) if old[index] != new[index]]
            if len(changed) == 1:  # one item changed (a seat's hand size, its last action)
                _changed(old[changed[0]], new[changed[0]], f"{path}/{changed[0]}", ops)
                return
        for dropped in (0, 1):  # appended to; or the first item gone, then appended to (the chat)
            kept = len(old) - dropped
            if 0 < kept <= len(new) and new[:kept] == old[dropped:]:
                ops.extend({"op": "remove", "path": f"{path}/0"} for _ in range(dropped))
                ops.extend({"op": "add", "path": f"{path}/-", "value": value} for value in new[kept:])
                return
        if len(new) < len(old) and new == old[: len(new)]:  # the last items gone (a pile's top)
            ops.extend(
                {"op": "remove", "path": f"{path}/{index}"} for index in range(len(old) - 1, len(new) - 1, -1)
            )
            return
        if len(old) == len(new):  # the same items, some changed (the players' connections)
            for index in changed:
                _changed(old[index], new[index], f"{path}/{index}", ops)
            return
    ops.append({"op": "replace", "path": path, "value": new})


def _escape(key: object) -> str:
    text = key if type(key) is str else str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return text


def apply(document: Any, ops: list[Op]) -> Any:
    """``document`` with ``ops`` applied (in place where it can; the result is returned, since a
    ``replace`` of the root path makes a new one). Raises :class:`PatchError` when an operation
    does not fit."""
    if not isinstance(ops, list):
        raise PatchError("a patch is a list of operations")
    for op in ops:
        if not isinstance(op, dict) or not isinstance(op.get("path"), str):
            raise PatchError(f"not a patch operation: {op!r}")
        kind = op.get("op")
        if kind not in ("add", "replace", "remove"):
            raise PatchError(f"unknown patch operation {kind!r}")
        if kind != "remove" and "value" not in op:
            raise PatchError(f"{kind} at {op['path']!r} has no value")
        path: str = op["path"]
        if path == "":
            if kind != "replace":
                raise PatchError("only replace may name the whole document")
            document = op["value"]
            continue
        if not path.startswith("/"):
            raise PatchError(f"a path starts with '/': {path!r}")
        parts = [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]
        parent = document
        for part in parts[:-1]:
            parent = _child(parent, part, path)
        _set(parent, parts[-1], kind, op.get("value"), path)
    return document


def _child(parent: Any, part: str, path: str) -> Any:
    if isinstance(parent, dict):
        if part not in parent:
            raise PatchError(f"no {part!r} in {path!r}")
        return parent[part]
    if isinstance(parent, list):
        return parent[_index(parent, part, path)]
    raise PatchError(f"{path!r} goes through a value that is neither an object nor a list")


def _index(items: list[Any], part: str, path: str, *, end: bool = False) -> int:
    if not part.isdigit() or (len(part) > 1 and part[0] == "0"):
        raise PatchError(f"{part!r} in {path!r} is not a list index")
    index = int(part)
    if index > len(items) or (index == len(items) and not end):
        raise PatchError(f"{path!r}: the list has {len(items)} items")
    return index


def _set(parent: Any, part: str, kind: str, value: Any, path: str) -> None:
    if isinstance(parent, dict):
        if kind != "add" and part not in parent:
            raise PatchError(f"{kind} of a key that is not there: {path!r}")
        if kind == "remove":
            del parent[part]
        else:
            parent[part] = value
        return
    if isinstance(parent, list):
        if kind == "add":
            if part == "-":
                parent.append(value)
            else:
                parent.insert(_index(parent, part, path, end=True), value)
        elif kind == "replace":
            parent[_index(parent, part, path)] = value
        else:
            del parent[_index(parent, part, path)]
        return
    raise PatchError(f"{path!r} names a part of a value that is neither an object nor a list")
