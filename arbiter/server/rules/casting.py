"""What a player with priority may do, and doing it: lands, spells, abilities, mana.

Casting follows CR 601.2: the card moves to the stack, targets are chosen (one decision per
target), the total cost is determined (including commander tax, CR 903.8) and paid by
activating mana abilities (CR 601.2g-h). A spell is offered only when it can be completed, so a
cast never has to be unwound except when a concession removes every legal target mid-cast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from . import attachments, planechase, planeswalkers
from .activations import record
from .cards.vocab import (
    HASTE,
    SELF,
    TAPS_LAND_FOR_MANA,
    Activated,
    CardDef,
    Cost,
    CostsMorePerExtraTarget,
    GiveControl,
    ManaAbility,
    Target,
    TargetSpec,
)
from .characteristics import has_keyword, is_type, layered_table, mana_abilities, subtypes
from .config import COMMANDER
from .division import choose_division, divided_total
from .filters import matches
from .keywords import can_target
from .mana import COLORS, ManaCost, Payment, can_pay, mana_choices, plan_payment
from .manual_payment import choose_sources
from .naming import activation_stopped
from .payment_preference import creatures, still_needed
from .restriction_effects import may_cast_spells
from .sacrifice import candidates as sacrifice_candidates
from .sacrifice import pay_sacrifice
from .state import (
    BATTLEFIELD,
    COMMAND,
    GRAVEYARD,
    HAND,
    MAIN_PHASES,
    REFRESH,
    STACK,
    Action,
    Decision,
    Obj,
    Ref,
    last_known,
)
from .statics import cost_reduction

if TYPE_CHECKING:
    from .game import Flow, Game

# CR 804.2: with the deploy creatures option every creature has "{T}: Target teammate gains
# control of this creature. Activate only as a sorcery." It is ability index -2.
DEPLOY = Activated(cost=Cost(tap=True), effects=(GiveControl(SELF, Target(0)),),
                   targets=(TargetSpec("teammate"),), sorcery_speed=True,
                   text="Target teammate gains control of this creature.")
# --------------------------------------------------------------------------- helpers


def is_sick(game: Game, obj: Obj) -> bool:
    """CR 302.6: a creature can't attack or use {T} abilities unless its controller has
    controlled it continuously since their most recent turn began; haste lets it (CR 702.10b-c)."""
    if not is_type(game, obj, "Creature") or has_keyword(game, obj, HASTE):
        return False
    ps = game.players.get(obj.controller)
    return ps is None or obj.since > ps.turn_started


def mana_sources(game: Game, pid: int, exclude: int | None = None) -> list[tuple[int, str]]:
    """Untapped mana abilities ``pid`` can activate now, as (object id, mana type).

    Each player's last answer is kept with the count of the game's changes and the turn,
    and given again (a copy) while they stand: the answer reads permanents (controller,
    tapped, phasing, attachments, the layers, since when they are controlled), which mark
    their keys and so move ``dirty.changes``, and the turn (summoning sickness, CR 302.6);
    not the mana pools, the step or who has priority, which the legal-action list's key has
    besides and which move without the count (a pool emptying, a new step)."""
    if exclude is None:
        return list(_kept_sources(game, pid))
    return list(_mana_sources(game, pid, exclude))


def _kept_sources(game: Game, pid: int) -> tuple[tuple[int, str], ...]:
    """:func:`mana_sources` without ``exclude``, as the kept tuple itself: the legal-action
    list only reads it, and a tuple is its own key for ``can_pay``'s answers."""
    key = (game.dirty.changes, game.turn)
    kept = game.sources_kept.get(pid)
    if kept is not None and kept[0] == key:
        return kept[1]
    out = _mana_sources(game, pid, None)
    game.sources_kept[pid] = (key, out)
    return out


def _mana_sources(game: Game, pid: int, exclude: int | None) -> tuple[tuple[int, str], ...]:
    out: list[tuple[int, str]] = []
    creatures: list[tuple[int, str]] = []
    # This runs for every legal-action list, so it reads the layers once (as is_sick and
    # mana_abilities would) and asks about attachments only for permanents that have some:
    # only those can be stopped from activating (CR 602.5).
    table = layered_table(game)
    statics = bool(game.global_sources)
    hosts = attachments.hosts(game) if statics else ()
    turn_started = None
    for o in game.battlefield:
        if o.controller != pid or o.tapped or o.phased_out or o.oid == exclude:
            continue
        d = o.defn
        # A land's mana abilities change only through the layers (CR 305.7); with no static
        # ability on the battlefield its printed ones are the answer, and a permanent
        # without any (most creatures) is passed over before anything else is asked.
        abilities: Sequence[ManaAbility] = d.mana_abilities
        if not (abilities or statics):
            continue
        ch = table.get(o.oid) if table is not None else None
        if statics and ch is not None and ch.land_mana is not None:
            abilities = [ManaAbility(m) for m in ch.land_mana]
        if not abilities:
            continue
        if o.oid in hosts and attachments.cant(game, o, "activate"):
            continue  # CR 602.5: mana abilities too
        # is_sick, with the layered characteristics already read (printed ones without).
        types = d.types if ch is None else ch.types
        if "Creature" in types and HASTE not in (d.keywords if ch is None else ch.keywords):
            if turn_started is None:
                ps = game.players.get(pid)
                turn_started = ps.turn_started if ps is not None else -1
            if o.since > turn_started:
                continue
        ab = abilities[0]
        # Prefer lands over creatures, so creatures stay free to attack and block.
        into = creatures if "Creature" in d.types else out
        if ab.per_subtype:  # one entry per mana it makes; activated once for all
            into.extend([(o.oid, ab.produces)] * mana_amount(game, o, ab))
        else:
            into.append((o.oid, ab.produces))
    return (*out, *creatures)


Sources = Sequence[tuple[int, str]]


def can_afford(game: Game, pid: int, cost: ManaCost, exclude: int | None = None, *,
               known: Sources | None = None) -> bool:
    """Could ``pid`` pay ``cost`` now? ``known``: ``mana_sources(game, pid)``, when the caller
    (the legal-action list) already has it and nothing has changed since; without ``exclude``'s
    entries it is what ``mana_sources(game, pid, exclude)`` would give, in the same order."""
    if cost.mana_value == 0:
        return True
    pool = game.players[pid].mana
    sources: Sources
    if known is None:
        sources = _kept_sources(game, pid) if exclude is None else \
            _mana_sources(game, pid, exclude)
    else:
        sources = known if exclude is None else [s for s in known if s[0] != exclude]
    return can_pay(cost, pool, sources)


def pay_mana(game: Game, pid: int, cost: ManaCost, exclude: int | None = None) -> bool:
    """Activate mana abilities and spend pool mana to pay ``cost`` (CR 601.2g-h), choosing
    the sources that keep the most options open (payment_preference.py)."""
    if cost.mana_value == 0:
        return True
    pool = game.players[pid].mana
    sources = mana_sources(game, pid, exclude)
    plan: Payment | None = plan_payment(cost, pool, sources, keep=still_needed(game, pid),
                                        last=creatures(game, sources))
    if plan is None:
        return False
    activate_all(game, pid, plan.sources)
    for color, n in plan.from_pool:
        pool[color] -= n
        if not pool[color]:
            del pool[color]
    # Whatever the plan activated beyond the pips is spent for generic mana.
    spent_from_sources: dict[str, int] = {}
    for _, color in plan.sources:
        spent_from_sources[color] = spent_from_sources.get(color, 0) + 1
    for color, n in spent_from_sources.items():
        pool[color] -= n
        if not pool[color]:
            del pool[color]
    game.dirty.add_pool(pid)
    return True


def activate_all(game: Game, pid: int, sources: Sequence[tuple[int, str]]) -> None:
    """CR 605.3a: the mana abilities of ``sources`` (source, mana type), activated while
    paying; a source listed once per mana it makes is activated once."""
    activated: set[int] = set()
    for oid, color in sources:
        if oid not in activated:
            activated.add(oid)
            activate_mana(game, pid, game.objects[oid], color=color, quiet=True)


def pay_by_hand(game: Game, pid: int, cost: ManaCost, name: str, *,
                exclude: int | None = None, cancel: str | None) -> Flow:
    """CR 601.2g: ``pid`` chooses the sources that pay ``cost`` (manual_payment.py), which
    are activated, their mana going to the pool for :func:`pay_mana`. False when the player
    cancelled or left (nothing was tapped then)."""
    chosen = yield from choose_sources(game, pid, cost, name,
                                       lambda: mana_sources(game, pid, exclude), cancel=cancel)
    if chosen is None:
        return False
    activate_all(game, pid, chosen)
    return True


def activate_mana(game: Game, pid: int, obj: Obj, *, color: str = "",
                  quiet: bool = False) -> None:
    """CR 605.3b: a mana ability doesn't go on the stack; it resolves at once. A source with
    a choice of colours (or of any colour) makes ``color``."""
    abilities = mana_abilities(game, obj)
    ab = next((a for a in abilities if color in mana_choices(a.produces)), abilities[0])
    choices = mana_choices(ab.produces)
    made = color if color in choices else choices[0]
    n = mana_amount(game, obj, ab)
    game.set_tapped(obj, True)
    if n:
        game.add_mana(pid, made, n)
    if not quiet:
        game.say(f"{game.name(pid)} taps {obj.name} for {('{' + made + '}') * n or 'nothing'}.")
    if is_type(game, obj, "Land"):  # CR 605.5a: what triggers on it goes on the stack
        game.emit(TAPS_LAND_FOR_MANA, player=pid, obj=obj)


def mana_amount(game: Game, obj: Obj, ab: ManaAbility) -> int:
    """How much mana ``ab`` makes now: one, or one per permanent of its subtype its
    controller controls (counted as it is activated, CR 605.3b: it resolves at once)."""
    if not ab.per_subtype:
        return 1
    return sum(1 for o in game.permanents()
               if o.controller == obj.controller and ab.per_subtype in subtypes(game, o))

def spell_cost(game: Game, pid: int, obj: Obj, *, x: int = 0, targets: int = 1,
               free: bool = False, reduction: int | None = None) -> ManaCost:
    """The total cost of casting ``obj`` from its zone (CR 601.2f) with X announced as ``x``
    and ``targets`` targets: the mana cost with X's value in (107.3a), or nothing when it is
    cast ``free`` ("without paying its mana cost", 118.9), plus the increases, less the
    reductions, which apply last and to generic mana only. ``reduction``: what
    ``cost_reduction(game, pid)`` gives now, when the caller (the legal-action list, for
    each card in hand) already has it."""
    d = obj.defn
    cost = ManaCost() if free else (d.cost or ManaCost()).with_x(x, d.x_color)
    more = extra_target_cost(d, targets) if targets > 1 else 0  # none for a first target
    if obj.zone == COMMAND and obj.card is not None:
        # CR 903.8: {2} more for each previous cast from the command zone this game.
        more += 2 * game.players[pid].commander_casts.get(obj.card.cid, 0)
    cost = cost.plus_generic(more)
    if reduction is None:
        reduction = cost_reduction(game, pid) if game.global_sources else 0
    return cost.minus_generic(reduction)


# --------------------------------------------------------------------------- targets


def targeting_source(obj: Obj) -> Obj:
    """What a target's hexproof, shroud and protection look at for a spell or ability on the
    stack: the spell itself, or the object the ability comes from (CR 702.16b)."""
    return obj.source if obj.is_ability and obj.source is not None else obj


def legal_targets(game: Game, controller: int, spec: TargetSpec, *,
                  exclude: tuple[Ref, ...] = (), source: Obj | None = None,
                  by: Obj | None = None, unlimited: bool = False) -> list[Ref]:
    """Every legal choice for one target (CR 115), within range of influence (CR 801.4) unless
    the ability's source is exempt from it (``unlimited``: a plane's, CR 901.13). ``by`` is the
    spell or the source of the ability that targets, which decides what hexproof, shroud and
    protection forbid (CR 702.11b, 702.16b, 702.18a); ``source``, for an activated ability,
    is the permanent that may not target itself as a creature."""
    return list(_targets(game, controller, spec, exclude, source, by, unlimited))


def first_target(game: Game, controller: int, spec: TargetSpec, *,
                 exclude: tuple[Ref, ...] = (), source: Obj | None = None,
                 by: Obj | None = None) -> Ref | None:
    """The first of :func:`legal_targets`, or None when there is none: what a castability
    question needs (is there a legal choice for each target, CR 601.2c), without looking at
    the choices after it."""
    return next(_targets(game, controller, spec, exclude, source, by, False), None)


def _targets(game: Game, controller: int, spec: TargetSpec, exclude: tuple[Ref, ...],
             source: Obj | None, by: Obj | None, unlimited: bool) -> Iterator[Ref]:
    """:func:`legal_targets` one at a time, in its order."""
    ranged = game.ranges is not None and not unlimited
    for ref in _candidates(game, controller, spec, source, by):
        if (not ranged or game.ref_in_range(controller, ref)) and ref not in exclude:
            yield ref


def _candidates(game: Game, controller: int, spec: TargetSpec, source: Obj | None,
                by: Obj | None) -> Iterator[Ref]:
    """Every legal choice for one target, before range of influence and the choices already
    made: players, then spells or graveyard cards, then permanents."""
    kind = spec.kind
    if kind in ("any", "player_or_planeswalker", "player", "opponent", "teammate"):
        for p in game.players_in_game():
            if kind == "opponent" and not game.are_opponents(controller, p):
                continue
            if kind == "teammate" and (p == controller or game.are_opponents(controller, p)):
                continue
            yield ("p", p)
    if spec.spell:  # CR 115.1: a spell on the stack, never the targeting spell itself
        yield from (("o", o.oid) for o in game.stack
                    if not o.is_ability and (by is None or o.oid != by.oid)
                    and (kind == "spell" or o.defn.types & {"Instant", "Sorcery"})
                    and _passes(game, o, spec, controller, by))
    elif spec.in_graveyard:  # CR 115.1, 404: a card in a graveyard (no protection there)
        owners = [controller] if kind == "your_graveyard_card" else game.players_in_game()
        yield from (("o", o.oid) for p in owners for o in game.graveyard(p)
                    if _passes(game, o, spec, controller, by))
    if kind in ("any", "player_or_planeswalker", "creature", "permanent", "opponent_creature"):
        # The layers once for the loop, as is_type would read them for each permanent.
        table = layered_table(game)
        for o in game.battlefield:
            if o.phased_out:
                continue
            ch = table.get(o.oid) if table is not None else None
            types = o.defn.types if ch is None else ch.types
            if kind in ("creature", "opponent_creature") and "Creature" not in types:
                continue
            if kind == "opponent_creature" and not game.are_opponents(controller, o.controller):
                continue
            if kind == "player_or_planeswalker" and "Planeswalker" not in types:
                continue
            if kind == "any" and not ("Creature" in types or "Planeswalker" in types):
                continue
            if source is not None and o.oid == source.oid and kind == "creature":
                continue
            if not _passes(game, o, spec, controller, by):
                continue
            if by is not None and not can_target(game, o, by, controller):
                continue
            yield ("o", o.oid)


def _passes(game: Game, obj: Obj, spec: TargetSpec, controller: int, by: Obj | None) -> bool:
    return spec.where is None or matches(game, obj, spec.where, controller, by)


def unlimited_source(obj: Obj) -> bool:
    """Is this spell or ability exempt from the limited range of influence (CR 901.13)?"""
    return obj.source is not None and planechase.exempt(obj.source.defn)


def target_still_legal(game: Game, controller: int, spec: TargetSpec, ref: Ref, *,
                       unlimited: bool = False, by: Obj | None = None) -> bool:
    """CR 608.2b: on resolution each target is checked again (a creature that has gained
    protection or shroud since is no longer a legal target)."""
    if ref[0] == "p":
        return ref in legal_targets(game, controller, spec, unlimited=unlimited, by=by)
    obj = game.objects.get(ref[1])
    zone = STACK if spec.spell else GRAVEYARD if spec.in_graveyard else BATTLEFIELD
    if obj is None or obj.zone != zone or obj.phased_out:
        return False
    return ref in legal_targets(game, controller, spec, unlimited=unlimited, by=by)


def _which(spec: TargetSpec, i: int, of: int) -> str:
    """The target a prompt asks for, as before ("a target creature", "first target creature",
    "another target player") except that "any target" takes no article ("Choose any target",
    not "Choose a any target": issue 29)."""
    words = spec.describe()
    if spec.kind == "any":
        return "any target" if of == 1 else "first target" if i == 0 else "another target"
    return f"first {words}" if of > 1 and i == 0 else f"another {words}" if i else f"a {words}"


def describe_ref(game: Game, ref: Ref) -> str:
    if ref[0] == "p":
        return game.name(ref[1])
    obj = game.objects.get(ref[1])
    return obj.name if obj is not None else "(gone)"


def choose_targets(game: Game, obj: Obj, specs: tuple[TargetSpec, ...]) -> Flow:
    """One decision per target (CR 601.2c). Returns False if some target has no legal choice
    left (possible only after a concession changed the game mid-cast)."""
    chosen: list[Ref] = []
    unlimited = unlimited_source(obj)
    by = targeting_source(obj)
    for i, spec in enumerate(specs):
        while True:
            options = legal_targets(game, obj.controller, spec, exclude=tuple(chosen),
                                    by=by, unlimited=unlimited)
            if spec.optional and game.in_game(obj.controller) and not options:
                break  # "up to": nothing more to choose
            if not game.in_game(obj.controller) or not options:
                return False
            actions = [Action(k, "target", f"Target {describe_ref(game, r)}", obj=obj.oid, ref=r)
                       for k, r in enumerate(options)]
            if spec.optional:
                actions.append(Action(len(actions), "done", "No more targets", obj=obj.oid))
            answer = yield Decision("target", obj.controller,
                                    f"Choose {_which(spec, i, len(specs))} for {obj.name}",
                                    actions)
            if answer is REFRESH:
                continue
            if answer.kind != "done":
                chosen.append(answer.ref)
            break
        if len(chosen) <= i:
            break  # an optional target declined: the ones after it are optional too
    obj.targets = chosen
    game.touch(obj)
    return True


# --------------------------------------------------------------------------- legal actions


def _sorcery_timing(game: Game, pid: int) -> bool:
    return game.step in MAIN_PHASES and not game.stack and game.is_active(pid)


def castable_cards(game: Game, pid: int) -> list[Obj]:
    cards = list(game.hand(pid))
    if game.config.variant == COMMANDER:
        cards.extend(o for o in game.command if o.owner == pid and o.is_commander)
    return cards


def can_cast(game: Game, pid: int, obj: Obj, known: Sources | None = None,
             reduction: int | None = None) -> bool:
    """Could ``pid`` cast ``obj`` now? ``known`` and ``reduction``: the player's mana sources
    and cost reduction, when the caller has them (see can_afford and spell_cost)."""
    d = obj.defn
    types = d.types
    if "Land" in types or d.cost is None:
        return False
    if not d.cast_any_time and not _sorcery_timing(game, pid):
        return False  # CR 702.8a: flash lets it be cast any time an instant could
    if game.effects and not may_cast_spells(game, pid):
        return False  # "your opponents can't cast spells this turn"
    return _payable_and_targetable(game, pid, obj, known, reduction)


def _payable_and_targetable(game: Game, pid: int, obj: Obj, known: Sources | None,
                            reduction: int | None) -> bool:
    """The rest of :func:`can_cast` once its type, timing and "can't cast" tests passed: can
    the total cost be paid (CR 601.2f-h), and does each target have a legal choice (601.2c)?"""
    d = obj.defn
    cost = spell_cost(game, pid, obj, reduction=reduction)
    if known is None:
        if not can_afford(game, pid, cost):
            return False
    elif cost.mana_value and not can_pay(cost, game.players[pid].mana, known):
        return False  # can_afford's question, with the sources known
    specs = d.spell_target_specs
    return not specs or _targets_exist(game, pid, specs, obj, None)


def _targets_exist(game: Game, pid: int, specs: tuple[TargetSpec, ...], by: Obj,
                   source: Obj | None) -> bool:
    """Can each of ``specs`` be given a legal target, different ones for different specs
    (CR 601.2c, 602.2b)? Each takes the first legal choice left; an optional ("up to")
    target with none ends the question, as choosing would."""
    chosen: tuple[Ref, ...] = ()
    for spec in specs:
        first = first_target(game, pid, spec, exclude=chosen, source=source, by=by)
        if first is None:
            return spec.optional
        chosen = (*chosen, first)
    return True


def works_from(ab: Activated, obj: Obj) -> bool:
    """CR 113.6: an activated ability works on the battlefield (a vanguard's in the command
    zone, 113.6p), or only from the zone it names (113.6b, 113.6m)."""
    return obj.zone == ab.zone if ab.zone else obj.zone in (BATTLEFIELD, COMMAND)


def can_activate(game: Game, pid: int, obj: Obj, ab: Activated,
                 known: Sources | None = None) -> bool:
    # Every test here only reads the game, so the cheap ones come first: this runs for each
    # activated ability at every priority, and most fail on timing or a tapped permanent.
    cost = ab.cost
    if not works_from(ab, obj):
        return False
    if (ab.sorcery_speed or cost.is_loyalty) and not _sorcery_timing(game, pid):
        return False  # CR 606.3: loyalty abilities at sorcery speed
    if cost.tap and obj.tapped:
        return False
    if cost.remove_counter and not obj.counter(cost.remove_counter):
        return False
    if game.global_sources and activation_stopped(game, obj):
        return False  # "activated abilities of sources with the chosen name can't be..."
    if game.global_sources and attachments.cant(game, obj, "activate"):
        return False  # CR 602.5
    if cost.is_loyalty and not planeswalkers.loyalty_ready(game, obj, cost):
        return False
    if cost.sacrifice and not sacrifice_candidates(game, pid, cost.sacrifice):
        return False
    if cost.tap and is_sick(game, obj):
        return False
    if cost.mana is not None and not can_afford(game, pid, cost.mana,
                                                 exclude=obj.oid if cost.tap else None,
                                                 known=known):
        return False
    return _targets_exist(game, pid, ab.targets, obj, obj)


def can_deploy(game: Game, pid: int, obj: Obj) -> bool:
    """CR 804.2: "{T}: Target teammate gains control of this creature. Activate only as a
    sorcery." Every creature has it when the deploy creatures option is used."""
    if not (game.config.uses_deploy and obj.defn.is_("Creature")):
        return False
    if obj.tapped or is_sick(game, obj) or not _sorcery_timing(game, pid):
        return False
    if game.global_sources and attachments.cant(game, obj, "activate"):
        return False  # CR 602.5: an Ice Caged creature can't be deployed either
    return bool(legal_targets(game, pid, TargetSpec("teammate")))


def priority_actions(game: Game, pid: int) -> list[Action]:
    """Every legal action for the player with priority (CR 117.1).

    Passes are most actions, and a pass changes nothing the list reads, so each player's last
    list is kept with what it was computed from and given again while that stands: the count
    of the game's changes (``Game.dirty.changes``, which every change of an object, a zone, a
    player, the mana pools or the continuous effects moves, and every action taken at
    priority), the count of changes of the player's own mana pool (``dirty.pools``), and the
    parts of the turn the list reads that the counts leave out: the turn (activations and
    summoning sickness count per turn, CR 302.6), the active player, sorcery timing (CR
    307.1, 117.1a) and the lands played this turn (CR 305.2). In Grand Melee the turns'
    stacks take turns being the game's (CR 807.5), so nothing is kept there."""
    dirty = game.dirty
    key = (dirty.changes, dirty.pools.get(pid, 0), game.turn, game.active,
           _sorcery_timing(game, pid), game.lands_played.get(pid, 0))
    kept = game.legal_actions.get(pid)
    if kept is not None and kept[0] == key and game.melee is None:
        return list(kept[1])
    actions = _priority_actions(game, pid, key[4])
    game.legal_actions[pid] = (key, actions)
    return list(actions)


def _priority_actions(game: Game, pid: int, sorcery: bool) -> list[Action]:
    """:func:`priority_actions` computed afresh; ``sorcery``: the player has sorcery timing.
    (Asked for most actions taken: the actions are appended directly, in the order of the
    list's ids, and the loops read what they use into local names.)"""
    actions: list[Action] = [Action(0, "pass", "Pass priority")]
    append = actions.append
    # Outside a main phase with an empty stack on one's own turn only instants and cards with
    # flash can be cast (CR 307.1, 702.8a): the others are answered here, as can_cast would.
    # CR 305.2; 805.4c: with shared team turns each player on the team may play a land (at
    # sorcery timing: a main phase of their turn with an empty stack).
    hand = game.hand(pid)
    if sorcery and game.lands_played.get(pid, 0) < 1:
        seen: set[str] = set()
        for o in hand:
            if "Land" in o.defn.types and o.name not in seen:
                seen.add(o.name)  # identical lands are one choice
                append(Action(len(actions), "play_land", f"Play {o.name}", o.oid))
    # Nothing below changes the game, so the mana sources are found once for every question.
    sources = _kept_sources(game, pid)
    # Cards of one name in one zone are one choice, and castable or not alike: asked once.
    seen_cast: set[tuple[str, str]] = set()
    # The reduction of spells' costs and "can't cast spells" are the player's, whatever the
    # card: asked once.
    reduction = cost_reduction(game, pid) if game.global_sources else 0
    may_cast = not game.effects or may_cast_spells(game, pid)
    cards = castable_cards(game, pid) if game.config.variant == COMMANDER else hand
    for o in cards if may_cast else ():
        d = o.defn
        # Timing first: it reads the definition alone, as the name below does, so a card
        # passed over here is passed over with every card of its name.
        if not (sorcery or d.cast_any_time) or "Land" in d.types or d.cost is None:
            continue
        key = (o.zone, d.name)
        if key in seen_cast:
            continue
        seen_cast.add(key)
        if _payable_and_targetable(game, pid, o, sources, reduction):
            where = " from the command zone" if o.zone == COMMAND else ""
            append(Action(len(actions), "cast", f"Cast {o.name}{where}", o.oid))
    deploy = game.config.uses_deploy
    # Most permanents (lands: their mana abilities are below) have no activated ability.
    for o in game.battlefield if deploy else [o for o in game.battlefield if o.defn.activated]:
        if o.phased_out:
            continue
        if o.controller != pid:
            # CR 801.6: an ability any player may activate, only on objects within range.
            for idx, ab in o.defn.activated:
                if (ab.anyone and game.obj_in_range(pid, o)
                        and can_activate(game, pid, o, ab, sources)):
                    append(Action(len(actions), "activate",
                                  f"{o.name}: {ab.cost.describe()}: {ab.text}", o.oid, None, idx))
            continue
        for idx, ab in o.defn.activated:
            if can_activate(game, pid, o, ab, sources):
                append(Action(len(actions), "activate", _ability_label(o.name, ab), o.oid, None,
                              idx))
        if deploy and can_deploy(game, pid, o):
            append(Action(len(actions), "activate",
                          f"{o.name}: {{T}}: a teammate gains control of it (deploy)",
                          o.oid, None, -2))
    for o in game.graveyard(pid) if game.yard_abilities else ():  # CR 113.6m
        for idx in o.defn.graveyard_abilities:
            from_yard = o.defn.abilities[idx]
            assert isinstance(from_yard, Activated)
            if can_activate(game, pid, o, from_yard, sources):
                append(Action(len(actions), "activate",
                              f"{o.name}: {from_yard.cost.describe()}: {from_yard.text}",
                              o.oid, None, idx))
    for o in game.command:  # a vanguard's activated abilities work from there (CR 902.7)
        if o.controller != pid or not o.defn.supplementary:
            continue
        for idx, ab in o.defn.activated:
            if can_activate(game, pid, o, ab, sources):
                append(Action(len(actions), "activate",
                              f"{o.name}: {ab.cost.describe()}: {ab.text}", o.oid, None, idx))
    if (game.config.planechase and planechase.may_roll(game, pid)  # CR 901.9
            and can_afford(game, pid, planechase.die_cost(game, pid), known=sources)):
        append(Action(len(actions), "roll_planar_die",
                      f"Roll the planar die ({planechase.die_cost(game, pid)})"))
    n = len(actions)
    for label, oid, index in _mana_actions(game, pid, sources):
        append(Action(n, "mana", label, oid, None, index))
        n += 1
    return actions


# The label of a permanent's own activated ability, by its name and the ability (a pure
# function of the two: the name is the definition's, the cost and text the ability's): the
# list makes one for each ability that can be activated, every time it is computed afresh.
# The ability is kept in the value, so the id in the key can't be reused while it is there.
_LABELS: dict[tuple[str, int], tuple[Activated, str]] = {}


def _ability_label(name: str, ab: Activated) -> str:
    key = (name, id(ab))
    kept = _LABELS.get(key)
    if kept is not None and kept[0] is ab:
        return kept[1]
    label = f"{name}: {ab.cost.describe()}: {ab.text}".rstrip(": ")
    if len(_LABELS) >= 1 << 14:
        _LABELS.clear()  # a bound on its memory; definitions are few
    _LABELS[key] = (ab, label)
    return label


def _mana_actions(game: Game, pid: int, sources: tuple[tuple[int, str], ...]
                  ) -> list[tuple[str, int, int]]:
    """The mana actions for ``sources`` (label, source, colour index), one per name and
    colour. They depend on nothing but the sources (an object's name never changes), which
    change less often than the rest of the list: the last player's answer is kept."""
    key = sources
    kept = game.mana_actions.get(pid)
    if kept is not None and kept[0] == key:
        return kept[1]
    out: list[tuple[str, int, int]] = []
    seen_mana: set[tuple[str, str]] = set()
    seen_kind: set[tuple[str, str]] = set()  # every colour of these is in seen_mana already
    makes: dict[tuple[int, str], int] = {}  # how much each source makes at once, in order
    for source in sources:
        makes[source] = makes.get(source, 0) + 1
    for (oid, produces), n in makes.items():
        name = game.objects[oid].name
        if (name, produces) in seen_kind:
            continue  # another land of the name: the same actions (the common case)
        seen_kind.add((name, produces))
        # A source with a choice of colours is one action per colour; ``index`` names it.
        choices = mana_choices(produces)
        for color in choices:
            if (name, color) in seen_mana:
                continue
            seen_mana.add((name, color))
            index = COLORS.index(color) if len(choices) > 1 else -1
            out.append((f"Tap {name} for {('{' + color + '}') * n}", oid, index))
    game.mana_actions[pid] = (key, out)
    return out


# --------------------------------------------------------------------------- doing it


def play_land(game: Game, pid: int, obj: Obj) -> None:
    """CR 305.1: playing a land is a special action; it doesn't use the stack."""
    game.lands_played[pid] = game.lands_played.get(pid, 0) + 1
    new = game.put_onto_battlefield(obj, pid, cause="play")
    game.say(f"{game.name(pid)} plays {obj.name}.", "play_land",
             player=pid, obj=new.oid if new else None)


def spell_target_specs(defn: CardDef, count: int = 0) -> tuple[TargetSpec, ...]:
    """What a spell's targets must be: an Aura's enchant, or its targets; for a spell with
    "any number of targets" that has ``count`` of them, the last kind repeated."""
    out = defn.spell_target_specs
    if defn.any_number_of_targets and out and count > len(out):
        out = (*out, *(out[-1],) * (count - len(out)))
    return out


def extra_target_cost(defn: CardDef, targets: int) -> int:
    """CR 601.2f: "costs {1} more to cast for each target beyond the first"."""
    per = sum(st.generic for st in defn.statics if isinstance(st, CostsMorePerExtraTarget))
    return per * max(targets - 1, 0)


def x_values(game: Game, pid: int, cost_of: Callable[[int], ManaCost]) -> list[int]:
    """Every value of X ``pid`` could pay for now, from 0 up (CR 107.3a); ``cost_of(x)`` is
    the total cost with that X. The list is bounded by the mana available (pool and untapped
    sources, plus what a reduction could take off), so a choice of X is one pick from a short
    list and a bot choosing at random always finishes."""
    available = sum(game.players[pid].mana.values()) + len(mana_sources(game, pid))
    most = available + (cost_reduction(game, pid) if game.global_sources else 0)
    # Fewer may be payable than that: the rest of the cost and its colours must still fit.
    while most > 0 and not can_afford(game, pid, cost_of(most)):
        most -= 1
    return list(range(most + 1))


def choose_x(game: Game, pid: int, obj: Obj, values: Callable[[], range | list[int]],
             name: str = "") -> Flow:
    """CR 601.2b, 107.3a: the player announces the value of X, one of ``values()`` (read
    again after a refresh), for the spell or ability ``obj`` (``name`` names its source).
    Returns None if the player left the game meanwhile."""
    while game.in_game(pid):
        actions = [Action(i, "x", f"X = {v}", obj=obj.oid, index=v)
                   for i, v in enumerate(values())]
        answer = yield Decision("x", pid, f"Choose X for {name or obj.name}", actions)
        if answer is REFRESH:
            continue
        return answer.index
    return None


def choose_more_targets(game: Game, spell: Obj, spec: TargetSpec,
                        cost_of: Callable[[int], ManaCost] | None = None,
                        most: int | None = None) -> Flow:
    """"Any number of targets" (CR 601.2c): after the first, one more target at a time, each
    a different player or object, until the caster is done, nothing is left to target, there
    are ``most`` targets, or the total cost with one more target (``cost_of(targets)``) could
    not be paid. ``spell`` may also be an ability on the stack."""
    pid = spell.controller
    while game.in_game(pid):
        chosen = tuple(spell.targets)
        options = legal_targets(game, pid, spec, exclude=chosen, by=targeting_source(spell),
                                unlimited=unlimited_source(spell))
        if (not options or (most is not None and len(chosen) >= most)
                or (cost_of is not None and not can_afford(game, pid, cost_of(len(chosen) + 1)))):
            return True
        also, another = ("Also target", "another") if chosen else ("Target", "a")
        actions = [Action(0, "done", "No more targets", obj=spell.oid), *(
            Action(k + 1, "target", f"{also} {describe_ref(game, r)}", obj=spell.oid, ref=r)
            for k, r in enumerate(options))]
        answer = yield Decision("target", pid, f"Choose {another} {spec.describe()} for "
                                f"{spell.name}, or no more", actions)
        if answer is REFRESH:
            continue
        if answer.kind == "done":
            return True
        spell.targets.append(answer.ref)
        game.touch(spell)
    return False


def cast_spell(game: Game, pid: int, card: Obj, *, free: bool = False,
               by_hand: bool = False) -> Flow:
    """CR 601.2: cast ``card``; ``free``: without paying its mana cost (118.9), X being 0
    (107.3b); ``by_hand``: the player chooses the sources that pay (a ``pay_mana`` decision).
    A cast that can't be completed, or that the player cancels while paying, is undone and
    the card goes back (730.1)."""
    from_zone = card.zone
    position = game.zone(card.zone, card.zone_owner).index(card)
    d = card.defn
    spell = game.move(card, STACK, controller=pid, cause="cast")  # CR 601.2a
    assert spell is not None
    spell.cast_from_hand = from_zone == HAND
    ok = True
    # The card as it was (``card``, in its old zone) decides the commander tax.
    if d.cost is not None and d.cost.x and not free:  # CR 601.2b: X is announced before targets
        x = yield from choose_x(game, pid, spell, lambda: x_values(
            game, pid, lambda v: spell_cost(game, pid, card, x=v)))
        ok = x is not None
        spell.x = x or 0
        game.touch(spell)
    specs = spell_target_specs(d)
    ok = ok and (yield from choose_targets(game, spell, specs))
    divided = divided_total(d.spell)
    if ok and d.any_number_of_targets:
        ok = yield from choose_more_targets(
            game, spell, specs[-1],
            lambda n: spell_cost(game, pid, card, x=spell.x, targets=n, free=free), most=divided)
    if ok and divided is not None:  # CR 601.2d: the division, after the targets
        ok = yield from choose_division(game, spell, divided)
    cost = spell_cost(game, pid, card, x=spell.x, targets=len(spell.targets),  # CR 601.2f
                      free=free)
    if ok and by_hand:  # CR 601.2g: the player activates mana abilities of their choice
        ok = yield from pay_by_hand(game, pid, cost, spell.name,
                                    cancel=f"Undo: don't cast {spell.name}")
    if not ok or not pay_mana(game, pid, cost):
        # CR 730.1 (handling illegal actions): rewind; the card goes back where it was.
        if spell.oid in game.objects and game.in_game(pid):
            game.move(spell, from_zone, position=position, cause="rewind")
        return
    ps = game.players[pid]
    if from_zone == COMMAND and card.card is not None:
        ps.commander_casts[card.card.cid] = ps.commander_casts.get(card.card.cid, 0) + 1
    ps.spells_cast.append(card.name)
    game.touch_player(pid)
    what = f" targeting {', '.join(describe_ref(game, r) for r in spell.targets)}" \
        if spell.targets else ""
    with_x = f" with X = {spell.x}" if d.cost is not None and d.cost.x else ""
    game.say(f"{game.name(pid)} casts {spell.name}{with_x}{what}.", "cast", player=pid,
             obj=spell.oid)
    game.emit("cast", player=pid, obj=spell)  # "whenever a player casts a spell"
    attachments.announce_targets(game, spell)  # CR 601.2i: now it has become cast


def activate_ability(game: Game, pid: int, obj: Obj, index: int, by_hand: bool = False) -> Flow:
    if index == -2:
        ab = DEPLOY
    else:
        found = obj.defn.abilities[index]
        assert isinstance(found, Activated)
        ab = found
    ability = game.new_object(obj.defn, pid, pid, STACK)
    ability.ability, ability.ability_index = ab, index
    ability.source = last_known(obj)
    ability.source.linked = obj.linked  # linked abilities share the exiled-cards record (607)
    cost = ab.cost
    ok = True
    if cost.loyalty_x:  # announced before targets are chosen (CR 601.2b by way of 602.2b)
        # From 0 up to the loyalty counters it has: CR 606.6 forbids removing more.
        x = yield from choose_x(game, pid, ability, lambda: range(obj.counter("loyalty") + 1),
                                obj.name)
        ok = x is not None
        ability.x = x or 0
    ok = ok and (yield from choose_targets(game, ability, ab.targets))
    if ok and cost.sacrifice:  # chosen as the cost is paid (CR 601.2h by way of 602.2b)
        ok = yield from pay_sacrifice(game, pid, cost.sacrifice, obj)
    if not ok:
        if ability.oid in game.objects:
            game.remove_object(ability)
        return
    if cost.is_loyalty:  # CR 606.4: loyalty costs add or remove loyalty counters
        planeswalkers.pay_loyalty(game, obj, cost, ability.x)
    tapped = obj.oid if cost.tap else None  # CR 602.2b by way of 601.2g: not a payer itself
    if by_hand and cost.mana is not None:
        # Cancelling is offered only while nothing is paid: a sacrifice or loyalty cost
        # already paid could not be given back.
        undo = None if cost.sacrifice or cost.is_loyalty else \
            f"Undo: don't activate {obj.name}'s ability"
        paid = yield from pay_by_hand(game, pid, cost.mana, obj.name, exclude=tapped,
                                      cancel=undo)
        if not paid:
            if ability.oid in game.objects:
                game.remove_object(ability)
            return
    if cost.mana is not None and not pay_mana(game, pid, cost.mana, exclude=tapped):
        game.remove_object(ability)
        return
    if cost.tap:
        game.set_tapped(obj, True)
    if cost.remove_counter:
        game.remove_counters(obj, cost.remove_counter, 1)
    if cost.sacrifice_self:
        game.move(obj, "graveyard", cause="sacrifice")
    record(game, obj, index)  # activated: it is on the stack and its costs are paid (602.2)
    what = f" targeting {', '.join(describe_ref(game, r) for r in ability.targets)}" \
        if ability.targets else ""
    game.say(f"{game.name(pid)} activates {obj.name}'s ability{what}.", "activate",
             player=pid, obj=ability.oid)
    attachments.announce_targets(game, ability)  # CR 602.2b


def perform_priority_action(game: Game, pid: int, action: Action) -> Flow:
    obj = game.objects.get(action.obj) if action.obj is not None else None
    # The act that chose this action asked to pay by hand (commands.Act.manual); it is read
    # now, before anything else is asked, and holds for this action only.
    by_hand, game.pay_by_hand = game.pay_by_hand == pid, None
    if action.kind == "play_land" and obj is not None:
        play_land(game, pid, obj)
    elif action.kind == "cast" and obj is not None:
        yield from cast_spell(game, pid, obj, by_hand=by_hand)
    elif action.kind == "activate" and obj is not None:
        yield from activate_ability(game, pid, obj, action.index, by_hand)
    elif action.kind == "mana" and obj is not None:
        activate_mana(game, pid, obj, color=COLORS[action.index] if action.index >= 0 else "")
    elif action.kind == "roll_planar_die":
        pay_mana(game, pid, planechase.die_cost(game, pid))
        planechase.roll(game, pid)

