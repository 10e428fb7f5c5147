"""What makes the largest deltas: bench/server.py --dump N.

Each delta a viewer receives is split into its parts (the envelope: type, room, sequence number
and checksum; the log lines; each op, by kind and key class) and the bytes of each part are
summed over the deltas at or above the p99 size, so we see which keys and which fields make the
top 1%. The N largest deltas are printed decoded, with each op's size.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack


def _size(value: Any) -> int:
    return len(msgpack.packb(value))


def key_class(key: Any) -> str:
    """An op key's class: the string keys as they are, every object id as ``obj``."""
    return key if isinstance(key, str) and not key[1:].isdigit() else (
        "pN" if isinstance(key, str) else "obj")


def parts(delta: dict[str, Any]) -> Counter[str]:
    """The bytes of one delta by part (they sum to about the whole: the map's own headers
    are in ``envelope``)."""
    out: Counter[str] = Counter()
    ops = delta.get("o", [])
    log = delta.get("l")
    out["log"] = _size(log) + 2 if log is not None else 0
    out["envelope"] = _size(delta) - out["log"] - _size(ops)
    for op in ops:
        cls = key_class(op[1])
        out[f"{op[0]} {cls}"] += _size(op)
        if op[0] == "s" and cls == "obj" and isinstance(op[2], dict):
            for field, value in op[2].items():
                out[f"  obj.{field}"] += _size(field) + _size(value)
    return out


def breakdown(frames: list[bytes], sizes: list[int], top: int) -> str:
    """A report on the deltas (view-only frames) at or above the p99 of ``sizes``."""
    if not sizes:
        return "no deltas"
    ordered = sorted(sizes)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    big = [f for f in frames if len(f) >= p99]
    total: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for frame in big:
        for part, n in parts(msgpack.unpackb(frame, strict_map_key=False)).items():
            total[part] += n
            count[part] += 1 if n else 0
    whole = sum(len(f) for f in big)
    lines = [f"{len(big)} deltas at or above p99 = {p99} B ({whole} B in all); bytes by part:"]
    for part, n in total.most_common():
        if n:
            lines.append(f"  {part:24s} {n:9d} B {100 * n / whole:5.1f}%  in {count[part]}")
    lines.append(f"the {top} largest:")
    for frame in sorted(frames, key=len, reverse=True)[:top]:
        delta = msgpack.unpackb(frame, strict_map_key=False)
        lines.append(f"  {len(frame)} B: log {delta.get('l')}")
        lines.extend(f"    {_size(op):4d} {op}" for op in delta.get("o", []))
    return "\n".join(lines)
