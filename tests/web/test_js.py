"""The browser client's port of the protocol (arbiter/clients/web/src/protocol) against the
reference: docs/protocol.md's test vectors, and snapshots of real games encoded by the Python
codec whose checksums and canonical encodings the JavaScript must reproduce byte for byte."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

from arbiter.clients.bots.strategies import heuristic_strategy
from arbiter.protocol.codec import canonical, pack
from arbiter.protocol.views import checksum
from arbiter.server.local import ViewKeeper
from arbiter.server.rules import Table
from arbiter.server.rules.cards.catalog import cards
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.config import GameConfig, PlayerConfig

from .node import WEB, node, node_modules


def _game_views() -> list[tuple[str, dict[Any, Any]]]:
    """Every seat's view at a few points of a four-player game with a limited range of
    influence (CR 801: a map keyed by digit strings beside the integer object ids)."""
    decks = ["quick-red", "quick-green", "quick-infect", "gruul-stompy"]
    players = tuple(PlayerConfig(f"P{i}", ready_made(d).main) for i, d in enumerate(decks))
    table = Table(GameConfig(players=players, variant="free_for_all", range_of_influence=1), 7)
    keeper = ViewKeeper(table, range(4))
    rng = random.Random(3)
    out = []
    for step in range(400):
        if table.finished:
            break
        keeper.refresh()
        if step % 50 == 0:
            out.extend((f"step {step}, seat {v}", dict(view))
                       for v, view in keeper.views.items())
        decision = table.pending
        assert decision is not None
        choice = heuristic_strategy(keeper.views[decision.player], decision.to_wire(), rng,
                                    cards())
        table.act(decision.player, decision.serial, choice)
    return out


def test_the_javascript_port_matches_the_reference(tmp_path: Path) -> None:
    node_modules()
    vectors = []
    views = _game_views()
    assert any("r" in v and any(isinstance(k, int) for k in v) for _, v in views)
    for what, view in views:
        frame = pack({"t": "s", "r": "1", "e": 1, "q": 0, "c": checksum(view), "v": view})
        vectors.append({"what": what, "frame": frame.hex(), "checksum": checksum(view),
                        "canonical": canonical(view).hex()})
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(vectors))
    done = subprocess.run([node(), "--test", "test/"], cwd=WEB, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "ARBITER_VECTORS": str(path)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout, done.stdout
