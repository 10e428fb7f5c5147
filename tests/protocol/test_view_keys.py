"""The named readers of a view (arbiter/protocol/view_keys.py) read what docs/protocol.md
section 8 says a view holds: its key names are the table's, and on real views they give the
game, the turn, the draw offer, the players and the objects."""

from __future__ import annotations

import re
from pathlib import Path

from arbiter.protocol import view_keys as vk

from ..rules.helpers import Scene, giant_scene

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _documented_keys() -> set[str]:
    text = DOC.read_text()
    start = text.index("\n## 8. Views")
    end = text.index("\n## ", start + 1)
    return {m.group(1) for line in text[start:end].splitlines()
            if (m := re.match(r'\| `"([a-zA-Z]+)"` \|', line))}


def test_the_key_names_are_the_keys_of_the_view_table_in_docs_protocol_md() -> None:
    documented = _documented_keys()
    assert "pN" in documented and vk.player_key(3) == "p3" and vk.player_of_key("p3") == 3
    assert documented - {"pN"} == set(vk.KEYS)


def test_805_the_readers_on_a_two_headed_giant_view() -> None:
    g = giant_scene().battlefield(1, "Grizzly Bears").life(0, 17).start()
    view = g.view(1)
    assert vk.game_number(view) == 1 and vk.game_depth(view) == 0
    assert vk.teams(view) == [(0, 1), (2, 3)]
    assert vk.shares(view, "turns") and vk.shares(view, "life")
    assert vk.turn(view) == g.game.turn and vk.active_player(view) == g.game.active
    assert vk.players_in(view) == [0, 1, 2, 3] and vk.in_game(view, 2)
    assert vk.life(view, 0) == vk.life(view, 1) == 17  # one life total per team (CR 810.4)
    assert vk.draw_offer(view) is None
    [bears] = [o for o in vk.objects(view).values() if vk.name(o) == "Grizzly Bears"]
    assert (vk.zone(bears), vk.owner(bears), vk.controller(bears)) == ("b", 1, 1)
    assert vk.power_toughness(bears) == (2, 2) and not vk.tapped(bears)
    assert vk.damage(bears) == 0 and vk.attacking(bears) is None and vk.blocking(bears) is None


def test_104_4i_the_draw_offer_and_the_status_of_players_who_left() -> None:
    g = Scene(3, variant="free_for_all").start()
    g.table.draw_offer(0, "propose", g.game.number)
    g.table.draw_offer(2, "accept", g.game.number)
    assert vk.draw_offer(g.view(1)) == vk.DrawOffer(0, (0, 2))
    g.concede(1)
    view = g.view(0)
    assert vk.draw_offer(view) is None, "the offer lapsed: the game changed"
    assert vk.status(view, 1) == "lost" and not vk.in_game(view, 1)
    assert vk.players_in(view) == [0, 2] and sorted(vk.players(view)) == [0, 1, 2]


def test_a_view_without_entries_reads_as_empty() -> None:
    assert vk.game({}) == {} and vk.game_number({}) == 0 and vk.turn({}) is None
    assert vk.active_player({}) is None and vk.teams({}) == [] and not vk.shares({}, "turns")
    assert vk.player({}, 0) == {} and vk.status({}, 0) is None and vk.life({}, 0) == 0
    assert vk.objects({"p0": {}, True: 1, 5: {"n": "X"}}) == {5: {"n": "X"}}
    assert vk.player_of_key("pc") is None and vk.player_of_key(4) is None
