"""The browser client's port of the protocol (arbiter/clients/web/src/protocol) against the
reference: docs/protocol.md's test vectors, snapshots of real games encoded by the Python codec
whose checksums and canonical encodings the JavaScript must reproduce byte for byte, the
server's own deltas of a real game (patch ops included) which its replica must follow to the
same checksums, and strings on which its room ids must give protocol/ids.py's answers."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from pathlib import Path
from typing import Any

from arbiter.bots.strategies import heuristic_strategy
from arbiter.protocol import ids
from arbiter.protocol.codec import canonical, pack
from arbiter.protocol.views import checksum
from arbiter.server.local import ViewKeeper
from arbiter.server.rooms.views import GameRoom
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


def _delta_streams() -> list[dict[str, Any]]:
    """Each seat's snapshot and then every delta the server's room core makes for it over an
    M10 game (GameRoom.project, as a version 2 connection gets them), with the checksum each
    delta claims: the JavaScript replica must reach every one."""
    decks = ["m10-green-stompy", "m10-white-weenie"]
    players = tuple(PlayerConfig(f"P{i}", ready_made(d).main) for i, d in enumerate(decks))
    table = Table(GameConfig(players=players), 5)
    room = GameRoom("1", table.top, spectator_key=-1, history=4, new_epoch=lambda: 1)
    streams = {k: {"what": f"M10 game, class {k}", "deltas": [],
                   "snapshot": pack({"t": "s", "r": "1", "e": 1, "q": 0, "c": cls.state.checksum,
                                     "v": cls.state.view}).hex()}
               for k, cls in room.classes.items()}
    rng = random.Random(5)
    for _ in range(600):
        if table.finished:
            break
        decision = table.pending
        assert decision is not None
        view = room.classes[decision.player].state.view
        table.act(decision.player, decision.serial,
                  heuristic_strategy(view, decision.to_wire(), rng, cards()))
        for key, ops in room.project().items():
            cls = room.classes[key]
            streams[key]["deltas"].append(pack(room.encode_delta(cls, ops)).hex())
            streams[key]["checksum"] = cls.state.checksum
    return list(streams.values())


def _room_id_vectors() -> list[dict[str, Any]]:
    """Strings with protocol/ids.py's answer for each: the room's numbers and its match, or
    null when it is no room id. Real ids of every size up to the limits, and near misses."""
    rng = random.Random(11)
    texts = ["12", "12.1.5", "", "0", "012", "012.1.5", "12.01.5", "12.1.05", "12.0.5",
             "12.1.0", "12.1", "12.1.5.7", "12.", ".12", "+12", " 12", "12\n", "12.1.5\n",
             "١٢", "²", "1_2", "9007199254740991", "9007199254740992", "1" * 32, "1" * 33,
             "1000000000000.1000000000.1000000", "10000000000000.1000000000.1000000"]
    for _ in range(300):
        parts = [str(rng.randint(1, 10 ** rng.randint(1, 16))) for _ in range(rng.choice((1, 3)))]
        texts.append(".".join(parts))
    texts.extend("".join(rng.choice("0123456789..x ") for _ in range(rng.randint(0, 12)))
                 for _ in range(300))
    out = []
    for text in texts:
        try:
            room = ids.parse(text)
        except ids.RoomIdError:
            out.append({"text": text, "room": None, "match": None})
            continue
        out.append({"text": text, "room": [room.match, room.game, room.number],
                     "match": ids.match_of(text)})
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
    streams = _delta_streams()
    # ["p", key, fields] packs as 93 a1 70, and with an array of keys 93 a1 70 9x: the
    # streams have patch ops of both kinds to follow.
    frames = [bytes.fromhex(d) for s in streams for d in s["deltas"]]
    assert any(re.search(rb"\x93\xa1p[^\x90-\x9f]", f) for f in frames)
    assert any(re.search(rb"\x93\xa1p[\x92-\x9f]", f) for f in frames)
    vectors.extend(streams)
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(vectors))
    room_ids = tmp_path / "room_ids.json"
    room_ids.write_text(json.dumps(_room_id_vectors()))
    done = subprocess.run([node(), "--test", "test/"], cwd=WEB, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "ARBITER_VECTORS": str(path),
                                            "ARBITER_ROOM_IDS": str(room_ids)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# skipped 0" in done.stdout, done.stdout
