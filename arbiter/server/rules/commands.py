"""Commands: the only way anything changes a table. Each is a plain value, so a game is a pure
function of (configuration, seed, commands) and the server's durable log is a list of these."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Act:
    """Choose action ``action`` of decision ``serial`` (the pending decision's serial);
    ``manual``: pay the mana of what it casts or activates by hand (manual_payment.py)."""

    player: int
    serial: int
    action: int
    manual: bool = False


@dataclass(frozen=True)
class Concede:
    """CR 104.3a. ``game`` names a game on the table's stack; None means the innermost game
    the player is still in."""

    player: int
    game: int | None = None


@dataclass(frozen=True)
class DrawOffer:
    """CR 104.4i: ``op`` is ``propose``, ``accept``, ``decline`` or ``withdraw``."""

    player: int
    op: str
    game: int | None = None


@dataclass(frozen=True)
class Penalty:
    """A game loss imposed from outside the game: a judge's penalty (CR 104.3k, 100.6) or a
    chess clock running out (``reason='clock'``)."""

    player: int
    reason: str = "judge"
    game: int | None = None


Command = Act | Concede | DrawOffer | Penalty

_KINDS: dict[str, type] = {"act": Act, "concede": Concede, "draw": DrawOffer, "penalty": Penalty}
_NAMES = {v: k for k, v in _KINDS.items()}


def to_record(cmd: Command) -> dict[str, Any]:
    rec = {"kind": _NAMES[type(cmd)], **asdict(cmd)}
    if isinstance(cmd, Act) and not cmd.manual:
        del rec["manual"]  # the log's records stay as they were before it existed
    return rec


def from_record(rec: dict[str, Any]) -> Command:
    data = dict(rec)
    cls = _KINDS[data.pop("kind")]
    return cls(**data)  # type: ignore[no-any-return]
