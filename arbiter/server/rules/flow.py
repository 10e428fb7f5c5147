"""The flow of a game: starting it (CR 103), turns and steps (CR 500-514), priority (CR 117).

The flow is a generator. It yields a :class:`Decision` whenever someone must choose and receives
the chosen :class:`Action`; it receives ``REFRESH`` instead when something changed out of turn
(a concession), and then rebuilds the decision from the new state.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from . import archenemy, ending, nontraditional, planechase, sba, teams
from .attachments import cant
from .cards.vocab import PHASING
from .casting import perform_priority_action, priority_actions
from .combat import attackers, declare_attackers, declare_blockers, end_combat
from .combat_damage import combat_damage, first_strikers, second_strikers
from .config import EMPEROR, TEAM_VS_TEAM
from .resolve import draw_cards, resolve_top
from .restart import finish_restart
from .state import (
    ATTACKERS,
    BATTLEFIELD,
    BEGIN_COMBAT,
    BLOCKERS,
    CLEANUP,
    DAMAGE,
    DRAW,
    END,
    END_COMBAT,
    FIRST_STRIKE_DAMAGE,
    LIBRARY,
    MAIN1,
    MAIN2,
    REFRESH,
    UNTAP,
    UPKEEP,
    Action,
    Decision,
    Obj,
)
from .statics import untap_also
from .trigger_effects import held_down
from .triggers import put_triggers_on_stack

if TYPE_CHECKING:
    from .game import Flow, Game, Request


# --------------------------------------------------------------------------- starting (103)


def start_game(game: Game, *, starting_player: int | None = None) -> Flow:
    """CR 103: choose the starting player, shuffle, draw, mulligan. With shared team turns
    the starting player's team is the starting team (CR 103.1a, 805.3) and its turn holder
    takes the first turn."""
    cfg = game.config
    live = game.players_in_game()
    if starting_player is not None and starting_player in live:
        sp = starting_player  # a restart (CR 724.1a) or a subgame's random pick (726.2)
    elif cfg.archenemy is not None and cfg.archenemy in live:
        sp = cfg.archenemy  # CR 103.1b, 904.6: no choosing, the archenemy goes first
    elif game.depth == 0 and cfg.starting_player is not None:
        sp = cfg.starting_player
    elif game.depth == 0 and cfg.chooser is not None and game.restart_followup is None:
        sp = yield from _choose_starting_player(game, cfg.chooser)
    else:
        sp = _random_starting_player(game, live)
    sp = teams.turn_holder(game, sp)
    game.starting_player = sp
    game.active = sp
    if cfg.planechase:
        planechase.set_planar_controller(game, sp)  # CR 901.6: the active player
    game.dirty.add("t")
    game.say(f"{teams.team_name(game, sp)} will play first.", "starting_player", player=sp)
    for p in live:  # CR 103.3, 103.3a
        game.shuffle(p)
        nontraditional.shuffle_decks(game, p)
        game.touch_player(p)
    yield from mulligans(game)
    planechase.set_starting_plane(game)  # CR 103.7, 901.5


def random_starting_player(game: Game) -> int:
    """A starting player chosen at random among those in ``game`` (a subgame, CR 726.2)."""
    return _random_starting_player(game, game.players_in_game())


def _random_starting_player(game: Game, live: list[int]) -> int:
    """CR 103.1 / 726.2: chosen at random; with shared team turns a random team (CR 805.3),
    whose turn holder then starts; in Emperor a random emperor (CR 809.4); in Team vs. Team a
    random team's centre player, or for an even team the player left of its midpoint
    (CR 808.4)."""
    cfg = game.config
    if game.team_turns:
        holders = sorted({teams.turn_holder(game, p) for p in live})
        return game.rng.choice(holders)
    if cfg.variant == EMPEROR:
        emperors = [p for p in live if cfg.players[p].emperor]
        if emperors:
            return game.rng.choice(emperors)
    if cfg.variant == TEAM_VS_TEAM:
        team_ids = sorted({cfg.players[p].team for p in live}, key=lambda t: (t is None, t))
        team = game.rng.choice(team_ids)
        members = [p for p in game.seats if cfg.players[p].team == team and p in live]
        # Seats run clockwise and turns pass to the left, so "left of the midpoint" is the
        # later of the two middle seats.
        return members[len(members) // 2]
    return game.rng.choice(live)


def _choose_starting_player(game: Game, chooser: int) -> Flow:
    """CR 103.1: the chooser picks who plays first. CR 800.4h: if the chooser leaves, the next
    player in turn order makes the choice."""
    while True:
        who = game.first_in_game_from(chooser)
        if who is None:
            return game.players_in_game()[0]
        chooser = who
        # CR 805.3: with shared team turns a team is chosen, named by its turn holder.
        live = sorted({teams.turn_holder(game, p) for p in game.players_in_game()},
                      key=game.seats.index)
        actions = [Action(i, "choose_player", f"{teams.team_name(game, p)} "
                          f"{'play' if game.team_turns else 'plays'} first", ref=("p", p))
                   for i, p in enumerate(live)]
        answer = yield Decision("starting_player", who, "Choose who takes the first turn",
                                actions)
        if answer is REFRESH:
            continue
        if game.in_game(answer.ref[1]):
            return answer.ref[1]


def _mulligan_counts(game: Game, pid: int) -> int:
    """Mulligans that count (CR 103.5c / 800.6: the first one is free in multiplayer)."""
    taken = game.players[pid].mulligans
    return max(taken - 1, 0) if game.multiplayer else taken


def mulligans(game: Game) -> Flow:
    """CR 103.5: draw opening hands, then rounds of mulligan declarations in turn order from the
    starting player; those who mulligan shuffle, draw anew and put cards on the bottom. With
    shared team turns the starting team declares first, in its acting order, then each other
    team in turn order (CR 103.5d, 805.3a): turn order from the starting team's turn holder.
    Each player's starting hand size may differ (a vanguard's, CR 103.5a, 902.5a)."""
    size = {p: game.config.hand_size_of(p) for p in game.seats}
    order = game.apnap()
    for p in order:
        draw_cards(game, p, size[p])
    undecided = list(order)
    while undecided:
        takers: list[int] = []
        for p in undecided:
            while game.in_game(p):
                if _mulligan_counts(game, p) >= size[p]:
                    break  # CR 103.5: the opening hand is already down to zero cards
                n = len(game.hand(p))
                actions = [Action(0, "keep", f"Keep these {n} cards"),
                           Action(1, "mulligan", "Take a mulligan")]
                answer = yield Decision("mulligan", p, f"Keep your {n}-card hand?", actions)
                if answer is REFRESH:
                    continue
                if answer.kind == "mulligan":
                    takers.append(p)
                break
        for p in takers:  # all at the same time
            if not game.in_game(p):
                continue
            for o in list(game.hand(p)):
                game.move(o, LIBRARY, cause="mulligan")
            game.shuffle(p)
            game.players[p].mulligans += 1
            draw_cards(game, p, size[p])
            game.say(f"{game.name(p)} takes a mulligan.", "mulligan", player=p)
        for p in takers:
            for _ in range(min(_mulligan_counts(game, p), len(game.hand(p)))):
                while game.in_game(p):
                    actions = []
                    seen: set[str] = set()
                    for o in game.hand(p):
                        if o.name not in seen:
                            seen.add(o.name)
                            actions.append(Action(len(actions), "bottom",
                                                  f"Put {o.name} on the bottom", obj=o.oid))
                    answer = yield Decision("bottom", p, "Put a card on the bottom of your "
                                            "library", actions)
                    if answer is REFRESH:
                        continue
                    game.move(game.objects[answer.obj], LIBRARY, position=0, cause="mulligan")
                    break
        undecided = [p for p in takers if game.in_game(p)]
    for p in game.players_in_game():
        game.players[p].kept = True


# --------------------------------------------------------------------------- turns


def play(game: Game, *, starting_player: int | None = None,
         resume: tuple[int, int, str] | None = None) -> Flow:
    """The whole game: CR 103, then turns until it ends (a :class:`GameEnded` unwinds us).

    ``resume`` = (active player, turn number, step) starts a scenario at the beginning of that
    step instead of starting the game from shuffled decks. Grand Melee takes its turns with
    turn markers instead (:func:`melee.play`), each turn by :func:`take_turn`.
    """
    start_step: str | None = None
    if resume is None:
        yield from start_game(game, starting_player=starting_player)
        ending.check_last_standing(game)
        active = game.starting_player
        first = True
    else:
        active, turn, start_step = resume
        game.turn = turn - 1
        first = False
    if game.team_turns:
        active = teams.turn_holder(game, active)
    normal = active  # whose turn in the normal order was taken last (extra turns aside)
    while True:
        if not game.in_game(active):
            active = normal = next_turn_player(game, active)
        yield from take_turn(game, active, first_turn=first, start_step=start_step)
        first = False
        start_step = None
        extra = take_extra_turn(game)
        if extra is not None:
            active = extra
        else:
            active = normal = next_turn_player(game, normal)


def take_extra_turn(game: Game) -> int | None:
    """CR 500.7: the most recently added extra turn is taken next; the turn order then goes
    on from the turn they were added after. CR 800.4k: the extra turn of a player who has
    left doesn't begin. CR 805.8: with shared team turns the player's team takes it, even
    when that player has left but a teammate is still playing (docs/rulings.md). Returns who
    takes the turn now, or None for the next turn in the normal order."""
    while game.extra_turns:
        pid = game.extra_turns.pop()
        game.dirty.add("t")
        holder = teams.turn_holder(game, pid)
        if game.in_game(holder):
            game.say(f"{teams.team_name(game, holder)} takes an extra turn.", "extra_turn",
                     player=holder)
            return holder
        game.say(f"{game.name(pid)} has left the game: their extra turn doesn't begin "
                 "(CR 800.4k).")
    return None


def next_turn_player(game: Game, current: int) -> int:
    """The next player in turn order whose turn begins. CR 800.4k: a departed player's turn
    doesn't begin; CR 800.4m: effects lasting until that turn end when it would have begun.
    With shared team turns the next team's turn begins (CR 805.4), held by its first member
    in acting order still in the game."""
    seats = game.seats
    i = seats.index(current)
    for k in range(1, len(seats) + 1):
        q = seats[(i + k) % len(seats)]
        if k < len(seats) and teams.same_turn(game, current, q):
            continue  # the current team's turn is ending, not beginning
        if game.in_game(q):
            return q
        _expire_until_next_turn(game, q)
    ending.check_last_standing(game)
    return current


def _expire_until_next_turn(game: Game, pid: int) -> None:
    before = len(game.effects)
    game.effects = [e for e in game.effects if e.expires_turn_of != pid]
    if len(game.effects) != before:
        game.control_changed()
        ending.exile_orphans(game)
        for o in game.battlefield:
            game.touch(o)
        game.touch_player(pid)  # a maximum hand size may be back


def begin_turn(game: Game, pid: int) -> None:
    game.turn += 1
    game.active = pid
    game.table.timestamp += 1
    for p in teams.team_of(game, pid):  # CR 805.4: the turn is each team member's turn
        if p in game.players:
            game.players[p].turn_started = game.table.timestamp
    game.lands_played = {}
    game.die_rolls = {}
    for other in game.players.values():  # "this turn" records
        other.damage_this_turn = other.to_graveyard_this_turn = 0
    if game.config.planechase:
        planechase.set_planar_controller(game, pid)  # CR 901.6
    game.compute_ranges()  # CR 801.2c
    for p in teams.team_of(game, pid):
        _expire_until_next_turn(game, p)
    game.dirty.add("t")
    game.say(f"Turn {game.turn}: {teams.team_name(game, pid)}.", "turn", player=pid,
             turn=game.turn)


def take_turn(game: Game, pid: int, *, first_turn: bool, start_step: str | None = None
              ) -> Flow:
    """One turn (CR 500). A scenario may begin it at the start of ``start_step``."""
    begin_turn(game, pid)
    if start_step is None:
        untap_step(game)
    steps: list[tuple[str, Callable[[], Flow]]] = [
        (UPKEEP, lambda: step_with_priority(game, UPKEEP, upkeep=True)),
        # CR 103.8a-c, 800.7, 810.6: only a two-player game's starting player and a Two-Headed
        # Giant game's starting team skip their first draw.
        (DRAW, lambda: draw_step(game, skip=first_turn and (not game.multiplayer
                                                            or game.config.giant))),
        (MAIN1, lambda: step_with_priority(game, MAIN1, main1=True)),
        (BEGIN_COMBAT, lambda: combat_phase(game)),
        (MAIN2, lambda: step_with_priority(game, MAIN2)),
        (END, lambda: step_with_priority(game, END, event="end_step")),
    ]
    started = start_step is None
    for step, run in steps:
        started = started or step == start_step
        if started:
            yield from run()
    yield from cleanup(game)


def untap_step(game: Game) -> None:
    """CR 502: phasing, then the active player (each player on the active team, CR 805.4)
    untaps; no player gets priority. Before the first turn's untap step of a restarted game,
    the restart effect finishes (CR 724.4)."""
    game.set_step(UNTAP)
    if game.restart_followup is not None:
        finish_restart(game)
    aps = teams.team_of(game, game.active)
    _phasing(game, aps)
    # "Untap all permanents you control during each opponent's untap step" adds players.
    untappers = {*aps, *untap_also(game, game.active)} if game.global_sources else set(aps)
    held = held_down(game, aps) if game.effects else set()  # CR 502.3
    for o in game.battlefield:
        if o.controller in untappers and o.tapped and not o.phased_out and o.oid not in held:
            if game.global_sources and cant(game, o, "untap"):
                continue  # CR 502.3: an effect keeps it from untapping
            game.set_tapped(o, False)
    game.empty_mana_pools()


def _phasing(game: Game, aps: tuple[int, ...]) -> None:
    """CR 702.26a: permanents with phasing the active player controls phase out, and those
    that phased out under that player's control phase in, at the same time."""
    going_out = [o for o in game.battlefield if o.controller in aps and not o.phased_out
                 and PHASING in o.defn.keywords]
    coming_in = [o for o in game.battlefield if o.phased_out and not o.phased_indirectly
                 and o.controller in aps]
    for o in coming_in:
        o.phased_out = False
        game.touch(o)
        for aura in game.battlefield:
            if aura.phased_indirectly and aura.attached_to == o.oid:
                aura.phased_out = aura.phased_indirectly = False
                game.touch(aura)
        game.say(f"{o.name} phases in.")
    for o in going_out:
        o.phased_out = True
        game.touch(o)
        for aura in game.battlefield:  # CR 702.26g: attached Auras phase out indirectly
            if aura.attached_to == o.oid and not aura.phased_out:
                aura.phased_out = aura.phased_indirectly = True
                game.touch(aura)
        game.say(f"{o.name} phases out.")
    if going_out or coming_in:
        game.control_changed()


def draw_step(game: Game, *, skip: bool = False) -> Flow:
    game.set_step(DRAW)
    if skip:
        # CR 103.8a: in a two-player game the starting player skips their first draw step
        # (CR 103.8c / 800.7: nobody does in a multiplayer game, except CR 103.8b / 810.6:
        # the starting team in Two-Headed Giant).
        verb = "skip" if len(teams.team_of(game, game.active)) > 1 else "skips"
        game.say(f"{teams.team_name(game, game.active)} {verb} the first draw step.")
        return
    actives = teams.active_players(game)
    for p in actives:
        draw_cards(game, p, 1)  # CR 504.1; 805.4b, 805.6a: each player on the team, in order
    if actives:  # "at the beginning of your draw step", for each player whose turn it is
        game.emit("draw_step", player=actives[0], players=actives)
    yield from priority(game)
    game.empty_mana_pools()


def step_with_priority(game: Game, step: str, *, upkeep: bool = False, main1: bool = False,
                       event: str = "") -> Flow:
    game.set_step(step)
    if upkeep or event:
        # "At the beginning of your upkeep / end step" triggers for each player whose turn it
        # is; a turn whose player has left still has its steps (CR 800.4j), so "each end step"
        # abilities (a delayed "at the beginning of the next end step") trigger in it too.
        actives = teams.active_players(game)
        game.emit("upkeep" if upkeep else event, player=actives[0] if actives else game.active,
                  players=actives)
    if main1:
        archenemy.set_in_motion(game)  # CR 904.9
    yield from priority(game)
    game.empty_mana_pools()


def combat_phase(game: Game) -> Flow:
    yield from step_with_priority(game, BEGIN_COMBAT)
    game.set_step(ATTACKERS)
    yield from declare_attackers(game)
    yield from priority(game)
    game.empty_mana_pools()
    if attackers(game):
        game.set_step(BLOCKERS)
        yield from declare_blockers(game)
        yield from priority(game)
        game.empty_mana_pools()
        first = first_strikers(game)
        strikers = None
        if first:  # CR 510.4: a first-strike combat damage step comes first
            game.set_step(FIRST_STRIKE_DAMAGE)
            yield from combat_damage(game, first)
            yield from priority(game)
            game.empty_mana_pools()
            strikers = second_strikers(game, first)
        game.set_step(DAMAGE)
        yield from combat_damage(game, strikers)
        yield from priority(game)
        game.empty_mana_pools()
    # CR 508.8: with no attackers, the declare blockers and combat damage steps are skipped.
    yield from step_with_priority(game, END_COMBAT)
    end_combat(game)


def _discard_to_hand_size(game: Game, ap: int) -> Flow:
    """CR 514.1: the active player discards down to their maximum hand size (a vanguard's,
    CR 902.5b; none at all under "no maximum hand size")."""
    most = game.max_hand_size(ap) if game.in_game(ap) else None
    while game.in_game(ap) and most is not None and len(game.hand(ap)) > most:
        seen: set[str] = set()
        actions: list[Action] = []
        for o in game.hand(ap):
            if o.name not in seen:
                seen.add(o.name)
                actions.append(Action(len(actions), "discard", f"Discard {o.name}", obj=o.oid))
        answer = yield Decision("discard", ap, "Discard down to your maximum hand size",
                                actions)
        if answer is REFRESH:
            continue
        game.discard(game.objects[answer.obj])


def cleanup(game: Game) -> Flow:
    """CR 514: discard to hand size, then damage wears off and "this turn" effects end. If
    that leaves state-based actions or triggers to handle, players get priority and another
    cleanup step follows (CR 514.3a)."""
    while True:
        game.set_step(CLEANUP)
        for ap in teams.active_players(game):  # CR 805.6: each active player, in order
            yield from _discard_to_hand_size(game, ap)
        for o in game.battlefield:
            if o.damage:
                o.damage = 0
                game.touch(o)
        before = len(game.effects)
        game.effects = [e for e in game.effects if e.duration != "until_end_of_turn"]
        if len(game.effects) != before:
            game.control_changed()
            ending.exile_orphans(game)
            for o in game.battlefield:
                game.touch(o)
        performed = yield from sba.check(game)
        if not performed and not game.pending_triggers:
            game.empty_mana_pools()
            return
        yield from priority(game)


# --------------------------------------------------------------------------- priority (117)


def settle(game: Game) -> Flow:
    """CR 117.5 / 704.3: state-based actions until none apply, then waiting triggers go on
    the stack, repeated until neither happens."""
    while True:
        # sba.check would skip itself too; asked here, no generator is made (it's every time).
        if game.sba_idle_at != game.dirty.changes and (yield from sba.check(game)):
            continue
        if game.pending_triggers:
            yield from put_triggers_on_stack(game)
            game.passed.clear()
            continue
        return


def priority(game: Game) -> Flow:
    """Priority in the current step until all players pass in succession on an empty stack.

    With shared team turns teams have priority (CR 805.5): the team's members are asked one at
    a time (:func:`teams.next_priority`), and the team passes once each has passed; every
    team passing in succession is every player passing in succession, so the test below
    serves both. In Grand Melee each turn marker's stack has priority of its own, among the
    players CR 807.5a names (:meth:`melee.Melee.priority`)."""
    if game.melee is not None:
        return (yield from game.melee.priority())
    game.passed = set()
    holder: int | None = game.active
    reset_loop_watch(game)
    while True:
        # CR 704.3, 117.5: state-based actions and triggers are checked before each priority
        # (sba.check skips a check while nothing has changed since one that found nothing;
        # asked here, most passes make no generator for it).
        if game.sba_idle_at != game.dirty.changes or game.pending_triggers:
            yield from settle(game)
        # CR 800.4j: with no active player, the next player in turn order gets priority.
        holder = game.first_in_game_from(holder if holder is not None else game.active)
        if holder is None:
            ending.check_last_standing(game)
            return
        game.priority = holder
        game.dirty.add_quiet("w")
        actions = priority_actions(game, holder)
        decision = Decision("priority", holder, "You have priority", actions)
        answer = yield decision
        if answer is REFRESH:
            continue
        if answer.kind == "pass":
            game.passed.add(holder)
            if game.passed.issuperset(game.players_in_game()):
                if not (yield from all_passed(game)):
                    return
                holder = game.active
                continue
            holder = (teams.next_priority(game, holder) if game.team_turns
                      else game.next_player(holder))
            continue
        game.bump_version()
        game.changed()
        yield from perform_priority_action(game, holder, answer)
        if answer.kind != "mana":
            game.passed.clear()
        # CR 117.3c: the player who acted receives priority again.


def reset_loop_watch(game: Game) -> None:
    """A player made a real choice: whatever repeats after it is not a mandatory loop."""
    game.loop_seen.clear()
    game.loop_objects.clear()


def all_passed(game: Game, resolve: Callable[[Game], Flow] = resolve_top
               ) -> Generator[Request, Any, bool]:
    """Everyone who gets priority has passed in succession (CR 117.4): with an empty stack
    the step or phase ends (False); otherwise the top of the stack resolves, unless that
    would repeat a mandatory loop, and the round of passes starts over (True)."""
    if not game.stack:
        game.priority = None
        game.dirty.add_quiet("w")
        return False
    if not _watch_for_loop(game):
        yield from resolve(game)
    game.passed.clear()
    return True


def _watch_for_loop(game: Game) -> bool:
    """CR 104.4b / 104.4f / 801.16: if automatic processing brings the game back to a state it
    was in, with no player having had any real choice since, it is a loop of mandatory
    actions and the game (or, under limited range, the game for those involved) is a draw.
    Returns True when it declared one (the players involved have then left)."""
    top = game.stack[-1]
    game.loop_objects.add(top.controller)
    if top.source is not None:
        game.loop_objects.add(top.source.controller)
    fp = fingerprint(game)
    if fp in game.loop_seen:
        game.say("The game is in a loop of mandatory actions.", "loop")
        involved = set(game.loop_objects)
        reset_loop_watch(game)
        ending.draw(game, None, "loop", involved=involved)
        return True
    game.loop_seen.add(fp)
    return False


def fingerprint(game: Game) -> tuple[Any, ...]:
    """The game's state with object ids abstracted away (ids change with every zone move even
    when nothing else does), for recognising a repeated state.

    The state itself, as a tuple compared by value (the loop watch keeps the few seen since
    the last real choice in a set): the turn and the players, then each zone's objects
    sorted (the order of a zone's list is not part of the state), then the stack and the
    count of effects. Equal fingerprints are equal states, with no digest that could
    collide. Each object is named by its card's id or, for a token, its name, as
    ``(cid, "")`` or ``(-1, name)`` with the host ``()`` when there is none, so that every
    field has one type and the objects sort without comparing a number with a string."""

    def ident(o: Obj | None) -> tuple[Any, ...]:
        if o is None:
            return ()
        card = o.card
        return ((card.cid, "") if card is not None else (-1, o.name), o.controller)

    head: list[Any] = [game.turn, game.step, game.active]
    for p in game.seats:
        ps = game.players[p]
        head.append((p, ps.in_game, ps.life, ps.poison, tuple(sorted(ps.mana.items())),
                     len(game.library(p)), len(game.hand(p)), len(game.graveyard(p))))
    parts: list[Any] = [tuple(head)]
    objects = game.objects
    for zone in (BATTLEFIELD, "exile", "command"):
        states = []
        for o in game.zone(zone):
            host = objects.get(o.attached_to) if o.attached_to else None
            card = o.card
            states.append((((card.cid, "") if card is not None else (-1, o.name), o.controller),
                           o.tapped, o.damage,
                           tuple(sorted(o.counters.items())) if o.counters else (),
                           o.phased_out, ident(host)))
        states.sort()
        parts.append(tuple(states))
    stack = []
    for o in game.stack:
        tgts = tuple(t if t[0] == "p" else ident(objects.get(t[1])) for t in o.targets)
        stack.append((ident(o), ident(o.source), o.ability_index, tgts))
    parts.append(tuple(stack))
    parts.append(len(game.effects))
    return tuple(parts)

