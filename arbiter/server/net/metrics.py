"""Counters for /metrics, rendered in the Prometheus text exposition format (version 0.0.4)."""

from __future__ import annotations

# One metric family: (name, type, help, [(labels, value), ...]).
Sample = tuple[str, str, str, list[tuple[dict[str, str], float]]]


class Metrics:
    """The transport's own counters; the core's are in ``Hub.stats``."""

    def __init__(self) -> None:
        self.slow_disconnects = 0
        self.policy_closes = 0  # closed by the transport for a policy reason (a full queue)
        self.connections_total = 0


def render(samples: list[Sample]) -> str:
    lines = []
    for name, kind, help_text, values in samples:
        lines.append(f"# HELP {name} {help_text}")
        lines.append(f"# TYPE {name} {kind}")
        for labels, value in values:
            label_text = ""
            if labels:
                inner = ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(labels.items()))
                label_text = "{" + inner + "}"
            number = repr(float(value)) if isinstance(value, float) else str(value)
            lines.append(f"{name}{label_text} {number}")
    return "\n".join(lines) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')
