"""A game configuration as plain data (maps, arrays, strings, numbers), the form in which the
log stores it: replaying a game needs nothing else. Both the rooms (which write it) and the
store's replay command (which reads it) use these, so they live beside the configuration."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .config import GameConfig, PlayerConfig, PlayerSetup, Scenario


def config_to_wire(config: GameConfig) -> dict[str, Any]:
    """``config`` as plain data."""
    def plain(value: Any) -> Any:
        if is_dataclass(value) and not isinstance(value, type):
            return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value
    out: dict[str, Any] = plain(config)
    return out


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def config_from_wire(data: dict[str, Any]) -> GameConfig:
    """The configuration :func:`config_to_wire` wrote."""
    data = dict(data)
    # Logs written before formats existed: casual_deck_sizes waived Commander's 100 cards.
    if data.pop("casual_deck_sizes", False):
        data["format"] = "casual"
    players = tuple(PlayerConfig(**{k: _tuples(v) for k, v in p.items()})
                    for p in data.pop("players"))
    scenario = data.pop("scenario", None)
    sc = None
    if scenario is not None:
        scenario = dict(scenario)
        setups = tuple(PlayerSetup(**{k: _tuples(v) for k, v in p.items()})
                       for p in scenario.pop("players"))
        sc = Scenario(players=setups, **scenario)
    return GameConfig(players=players, scenario=sc,
                      **{k: _tuples(v) for k, v in data.items()})
