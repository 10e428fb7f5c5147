"""A canonical, order-stable description of a table's whole state, for its state hash.

Everything that can influence what happens next is included (down to the random generators'
states and the pending decision); plain Python values only, so ``repr`` is stable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import Continuous, Obj

if TYPE_CHECKING:
    from .game import Game
    from .table import Table


def _obj(o: Obj) -> tuple[Any, ...]:
    out: tuple[Any, ...] = (
        o.oid, o.card.cid if o.card else o.name, o.owner, o.controller, o.base_controller,
        o.zone, o.zone_owner, o.tapped, o.damage, sorted(o.counters.items()), o.attached_to,
        o.phased_out, o.phased_indirectly, o.cast_from_hand, tuple(o.linked), o.loyalty_turn,
        o.ability_index, tuple(o.targets), o.attacking, o.blocking, o.blocked, o.since,
        o.timestamp, o.order)
    # Grand Melee's stack numbers, and deathtouch damage waiting for the next state-based
    # check (CR 704.5h), are added only where they exist, so that the hashes of other games
    # stay what logs written before them recorded.
    if o.deathtouched:
        out = (*out, "deathtouched")
    if o.chosen:  # a choice made as it entered (a basic land type)
        out = (*out, "chosen", o.chosen)
    if o.x or o.is_copy:  # a spell's announced X (CR 107.3a), a copy (CR 707.10)
        out = (*out, "x", o.x, o.is_copy)
    if o.activated:  # activations this turn (activations.py)
        out = (*out, "activated", tuple(sorted(o.activated.items())))
    if o.also_blocking:  # one creature blocking several (CR 509.1a)
        out = (*out, "blocks", o.also_blocking)
    if o.chosen_name:  # "as ~ enters, choose a card name"
        out = (*out, "name", o.chosen_name)
    if o.division:  # a spell's announced division (CR 601.2d)
        out = (*out, "div", o.division)
    return (*out, o.stack_id) if o.stack_id else out


def _effect(e: Continuous) -> tuple[Any, ...]:
    out: tuple[Any, ...] = (
        e.kind, e.controller, e.timestamp, e.duration, e.affected, e.player, str(e.keyword),
        e.amount, e.target, e.redirect_to, e.expires_turn_of, e.power, e.toughness)
    if e.colors or e.subtype:  # kinds added later: old hashes stay as they were
        out = (*out, e.colors, e.subtype)
    if e.while_on is not None:
        out = (*out, e.while_on)
    if e.words is not None:
        out = (*out, e.words)
    return out


def game_state(g: Game) -> tuple[Any, ...]:
    players = tuple(
        (p, ps.life, ps.in_game, ps.poison, sorted(ps.mana.items()), ps.drew_from_empty,
         ps.mulligans, ps.kept, sorted(ps.commander_damage.items()),
         sorted(ps.commander_casts.items()), tuple(ps.spells_cast), ps.turn_started,
         ps.damage_this_turn, ps.to_graveyard_this_turn, ps.no_max_hand)
        for p, ps in sorted(g.players.items()))
    zones = tuple((k, tuple(_obj(o) for o in lst))
                  for k, lst in sorted(g.zones.items(), key=lambda kv: repr(kv[0])))
    pending: tuple[Any, ...] | None = None
    if g.pending is not None:
        d = g.pending
        pending = (d.kind, d.player, d.serial, tuple((a.kind, a.obj, a.ref, a.index)
                                                      for a in d.actions))
        if d.stack is not None:
            pending = (*pending, d.stack)
    out: tuple[Any, ...] = (
        g.number, g.depth, tuple(g.seats), g.turn, g.active, g.step, g.priority,
        g.starting_player, g.rng.state, players, zones, tuple(_effect(e) for e in g.effects),
        tuple((t.ability_index, t.source.oid if t.source else None, t.controller)
              for t in g.pending_triggers),
        tuple(sorted(g.passed)), pending, tuple(sorted((p, o.outcome, o.reason)
                                                       for p, o in g.outcomes.items())),
        tuple(sorted((p, tuple(c.cid for c in cs)) for p, cs in g.departed_cards.items())),
        g.draw_offer and (g.draw_offer[0], tuple(sorted(g.draw_offer[1])), g.draw_offer[2]),
        g.version, tuple(g.attack_plan), tuple(g.block_plan), tuple(sorted(g.lands_played.items())),
        g.suspended, g.result is not None, g.planar_controller,
        tuple(sorted(g.die_rolls.items())),
    )
    if g.extra_turns:  # CR 500.7; added only when there are some, as for Grand Melee below
        out = (*out, ("extra_turns", tuple(g.extra_turns)))
    if g.delayed_triggers:  # CR 603.7, likewise
        out = (*out, ("delayed", tuple((t.source.oid if t.source else None, t.controller)
                                       for t in g.delayed_triggers)))
    return (*out, g.melee.hash_state()) if g.melee is not None else out


def table_state(t: Table) -> tuple[Any, ...]:
    return (
        t.seed, t.rng.state, t.serial, t._oid, t.timestamp,
        tuple(sorted((p, tuple(c.cid for c in cs)) for p, cs in t.outside.items())),
        tuple(game_state(g) for g in t.games),
        tuple((r.game, r.winners, r.draw, r.restarted, r.abandoned) for r in t.history),
    )
