"""What the engine keeps between decisions while nothing changes (casting.priority_actions,
casting.mana_sources, sba.check, Game.settle_chars, keyed by ``Game.dirty.changes``; the
layers, kept until something they read changes; mana.can_pay and the activated abilities'
labels, by their inputs) must give
exactly what it would compute afresh: the legal actions at priority (CR 117.1), the mana
sources, the state-based check (CR 704.3) and the layered characteristics."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.server.rules import GameConfig, PlayerConfig, Table, attachments, casting, mana, sba
from arbiter.server.rules.cards.decks import READY_MADE, ready_made
from arbiter.server.rules.casting import (
    _mana_sources,
    _priority_actions,
    _sorcery_timing,
    mana_sources,
)
from arbiter.server.rules.characteristics import is_type, toughness
from arbiter.server.rules.game import Game
from arbiter.server.rules.layers import compute
from arbiter.server.rules.mana import COLORS, ManaCost, can_pay, plan_payment
from arbiter.server.rules.state import HAND, DirtyKeys

from .helpers import Scene
from .random_play import random_play

M10 = sorted(d for d in READY_MADE if d.startswith("m10-"))


def test_dirty_keys_count_changes_but_not_who_decides_nor_the_step() -> None:
    keys = DirtyKeys()
    keys.add("w")
    keys.add("t")
    keys.add("d")
    assert keys.changes == 0 and keys == {"w", "t", "d"}
    keys.add(12)
    keys.add(("p", 1))
    assert keys.changes == 2
    keys.clear()  # the views' consumers clear the keys, never the count
    assert keys.changes == 2


def test_a_mana_pool_change_is_counted_for_its_player_alone() -> None:
    keys = DirtyKeys()
    keys.add_pool(1)
    assert keys == {("p", 1)}  # the view still hears of it
    assert keys.changes == 0 and keys.pools == {1: 1}


def test_307_1_a_kept_list_follows_sorcery_timing_from_main_phase_to_combat() -> None:
    # Nothing changes between the two decisions but the step: the list kept from the main
    # phase must not offer the sorcery at the beginning of combat.
    g = Scene().battlefield(0, *["Mountain"] * 5).hand(0, "Lava Axe").at("main1").start()
    assert g.find("cast", "Lava Axe") is not None
    g.pass_(2)
    assert g.game.step == "begin_combat" and g.decision.player == 0
    assert g.find("cast", "Lava Axe") is None


def test_500_4_the_mana_pool_emptying_drops_its_players_kept_list() -> None:
    g = (Scene().battlefield(0, "Mountain").hand(0, "Lightning Bolt")
         .battlefield(1, "Forest").at("upkeep").start())
    g.choose("mana", "Tap Mountain")
    assert g.find("cast", "Lightning Bolt") is not None  # paid from the pool
    g.pass_(2)  # the step ends: the pool empties, the Mountain stays tapped
    assert g.game.step == "draw" and g.game.players[0].mana == {}
    assert g.decision.player == 0 and g.find("cast", "Lightning Bolt") is None


def test_dirty_keys_keep_what_was_marked_since_the_state_based_check_took_it() -> None:
    keys = DirtyKeys()
    keys.add(12)
    keys.add(("p", 1))
    keys.add("w")  # quiet: it changes nothing the check reads
    keys.clear()  # the views' clearing leaves them
    assert keys.since_check == {12, ("p", 1)}


def test_514_2_a_cleanup_that_ends_no_effect_keeps_the_layers() -> None:
    g = (Scene().battlefield(0, "Forest", "Grizzly Bears").hand(0, "Giant Growth")
         .at("main1").start())
    g.cast(0, "Giant Growth", "Grizzly Bears").resolve()
    game = g.game
    assert len(game.effects) == 1
    table = game.chars = compute(game)
    game.effects = [e for e in game.effects if e.duration != "until_turn_of"]
    assert game.chars is table  # the same effects: nothing the layers read changed
    game.effects = []  # the +3/+3 ends (CR 514.2)
    assert game.chars is None


def _draw_keeps_layers(g: Any) -> bool:
    game: Game = g.game
    game.chars = compute(game)
    table = game.chars
    game.move(game.library(0)[-1], HAND)
    return game.chars is table


def test_a_card_drawn_keeps_the_layers_unless_they_read_a_library() -> None:
    lord = (Scene().battlefield(0, "Elvish Archdruid", "Llanowar Elves")
            .library(0, "Forest", "Forest").start())
    assert _draw_keeps_layers(lord)  # "other Elves get +1/+1" reads no library
    nocturnus = (Scene().battlefield(0, "Vampire Nocturnus", "Child of Night")
                 .library(0, "Black Knight", "Wastes").start())
    assert not _draw_keeps_layers(nocturnus)  # "as long as the top card ... is black"


_COSTS = st.builds(ManaCost, st.integers(0, 4),
                   st.lists(st.tuples(st.sampled_from(COLORS), st.integers(1, 2)), max_size=2,
                            unique_by=lambda p: p[0]).map(lambda ps: tuple(sorted(ps))))
_SOURCES = st.lists(st.sampled_from(["W", "U", "B", "R", "G", "C", "BR", "GW", "*"]),
                    max_size=6).map(lambda ts: [(i, t) for i, t in enumerate(ts)])


@settings(max_examples=200, deadline=None)
@given(_COSTS, st.dictionaries(st.sampled_from(COLORS), st.integers(1, 2), max_size=2),
       _SOURCES)
def test_601_2g_can_pay_answers_as_the_payment_plan_also_when_remembered(
        cost: ManaCost, pool: dict[str, int], sources: list[tuple[int, str]]) -> None:
    planned = plan_payment(cost, pool, sources) is not None
    assert can_pay(cost, pool, sources) is planned
    assert can_pay(cost, dict(pool), list(sources)) is planned  # from what it remembers


def _check_sba_kept(game: Game) -> None:
    """When the next state-based check would look only at the permanents marked since the
    last (sba._to_examine), every other permanent needs nothing (CR 704.5f-i, q), and when
    it would skip the Auras and Equipment, none is illegal (704.5m-n)."""
    kept = game.sba_kept
    if game.sba_idle_at < 0 or kept is None or kept[0] is not game.chars or (
            game.chars is None and (game.continuous or game.global_sources)):
        return
    marked = game.dirty.since_check
    for o in game.battlefield:
        if o.oid in marked or o.phased_out:
            continue
        assert not o.deathtouched
        if is_type(game, o, "Creature"):
            assert toughness(game, o) > 0 and o.damage < toughness(game, o)
        if is_type(game, o, "Planeswalker"):
            assert o.counter("loyalty") > 0
        assert not (o.counter("+1/+1") and o.counter("-1/-1"))
        assert o.oid in kept[1] or not o.defn.legendary
    if kept[2] and sba._attachments_stand(game, marked, set(kept[2])):
        assert attachments.illegal_auras(game) == []
        for o in game.battlefield:
            host = attachments.host_of(game, o)
            if o.attached_to is not None and not o.phased_out and not o.defn.is_aura:
                assert host is not None and attachments.can_equip(game, o, host)


def _check_kept(table: Table) -> None:
    """After each command: the pending priority list is what a fresh computation gives, and
    so are each player's kept mana sources and the kept layers; a state-based check the
    engine would skip finds nothing and changes nothing, and one it would make looking only
    at what changed would find nothing elsewhere; a settle of the characteristics it would
    skip marks nothing."""
    game = table.top
    d = table.pending
    if d is not None and d.kind == "priority" and game.melee is None:
        # Fresh also of what is remembered by its inputs (labels, payability).
        casting._LABELS.clear()
        mana._PAYABLE.clear()
        assert d.actions == _priority_actions(game, d.player, _sorcery_timing(game, d.player))
    for pid in game.players_in_game():
        assert mana_sources(game, pid) == list(_mana_sources(game, pid, None))
    if game.chars is not None:
        kept, read = game.chars, game.chars_read_library
        assert kept == compute(game)
        game.chars, game.chars_read_library = kept, read
    _check_sba_kept(game)
    if game.sba_idle_at == game.dirty.changes:
        before, at = table.state_hash(), game.dirty.changes
        game.sba_idle_at = -1
        flow = sba.check(game)
        try:
            next(flow)
            raise AssertionError("a skipped state-based check asked a question")
        except StopIteration as done:
            assert done.value is False
        assert game.sba_idle_at == game.dirty.changes == at
        assert table.state_hash() == before
    if game.chars_settled_at == game.dirty.changes:
        at = game.dirty.changes
        game._settle_chars()
        assert game.dirty.changes == at


@settings(max_examples=4, deadline=None)
@given(st.sampled_from([2, 4]), st.lists(st.sampled_from(M10), min_size=4, max_size=4),
       st.integers(0, 2**32 - 1), st.integers(0, 2**16))
def test_what_is_kept_equals_what_would_be_computed_in_random_m10_games(
        players: int, decks: list[str], seed: int, bot_seed: int) -> None:
    config = GameConfig(
        players=tuple(PlayerConfig(f"P{i}", ready_made(d).main, ready_made(d).sideboard)
                      for i, d in enumerate(decks[:players])),
        variant="two_player" if players == 2 else "free_for_all")
    checked: list[Table] = []

    def check(table: Table) -> None:
        _check_kept(table)
        checked.append(table)

    random_play(config, seed, bot_seed, concede_rate=0.002, check=check)
    assert checked
