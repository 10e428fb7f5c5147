"""State-based actions (CR 704): checked whenever a player would receive priority, all applicable
ones performed at once, repeated until none apply (CR 704.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import archenemy, attachments, ending, planechase
from .characteristics import layered_table, toughness
from .config import ARCHENEMY, COMMANDER
from .keywords import destroy
from .resolve import choose
from .state import BATTLEFIELD, COMMAND, EXILE, GRAVEYARD, Action, Obj

if TYPE_CHECKING:
    from .game import Flow, Game
    from .layers import Chars


def check(game: Game) -> Flow:
    """Perform one round of state-based actions; returns True when any were performed."""
    if game.sba_idle_at == game.dirty.changes:
        # The last check found nothing at all and nothing has changed since (a priority pass
        # or a new step changes nothing these rules read): this one would find nothing too.
        return False
    losers: dict[int, str] = {}
    # CR 704.6a-b / 810.8c-d: in Two-Headed Giant a team's shared life total and poison count
    # (which each member's record carries) make the whole team lose; 15 poison counters.
    giant = game.giant
    variant = game.config.variant
    players = game.players
    for pid in game.seats:  # players_in_game(), without making its list
        ps = players[pid]
        if not ps.in_game:
            continue
        if ps.life <= 0:
            losers[pid] = "team_life" if giant else "life"  # CR 704.5a
        elif ps.drew_from_empty:
            losers[pid] = "decking"  # CR 704.5b
        elif ps.poison >= game.poison_limit:
            losers[pid] = "team_poison" if giant else "poison"  # CR 704.5c
        elif variant == COMMANDER and any(
                d >= 21 for d in ps.commander_damage.values()):
            losers[pid] = "commander_damage"  # CR 704.6c / 903.10a
        if ps.drew_from_empty:
            ps.drew_from_empty = False
    performed = False
    to_graveyard: list[Obj] = []
    doomed: list[Obj] = []  # to be destroyed, which indestructible stops (CR 702.12b)
    plus_minus: list[Obj] = []
    # The layers once for the whole battlefield, as is_type and toughness would read them.
    table = layered_table(game)
    marked, objs, legend_ids, attached_ids = _to_examine(game, table)
    for o in objs:
        deathtouched, o.deathtouched = o.deathtouched, False  # "since the last check"
        if o.phased_out:
            continue
        if o.attached_to is not None or o.defn.is_aura:
            attached_ids.add(o.oid)
        if o.defn.legendary:
            legend_ids.add(o.oid)
        ch = table.get(o.oid) if table is not None and o.zone == BATTLEFIELD else None
        types = o.defn.types if ch is None else ch.types
        if "Creature" in types:
            t = toughness(game, o) if ch is None else ch.toughness
            if t <= 0:
                to_graveyard.append(o)  # CR 704.5f
            elif o.damage >= t:
                doomed.append(o)  # CR 704.5g
            elif deathtouched:
                doomed.append(o)  # CR 704.5h
        if "Planeswalker" in types and o.counter("loyalty") <= 0:
            to_graveyard.append(o)  # CR 704.5i
        if o.counters and o.counter("+1/+1") and o.counter("-1/-1"):
            plus_minus.append(o)  # CR 704.5q
    # Only with something attached to something can an attachment be illegal, and only
    # with two legendary permanents can the legend rule apply.
    attached, legends = bool(attached_ids), len(legend_ids)
    stand = attached and _attachments_stand(game, marked, attached_ids)
    if attached and not stand:
        to_graveyard.extend(attachments.illegal_auras(game))  # CR 704.5m, 303.4c, 801.8
    # CR 704.5d: a token outside the battlefield ceases to exist.
    if game.tokens:
        stray = [game.objects[i] for i in game.tokens if game.objects[i].zone != BATTLEFIELD]
        for o in sorted(stray, key=lambda o: o.oid):
            game.remove_object(o)
            performed = True
    if losers and ending.lose(game, losers):  # may end the game (raises GameEnded)
        performed = True
    for o in plus_minus:
        if o.oid in game.objects:
            n = min(o.counter("+1/+1"), o.counter("-1/-1"))
            game.remove_counters(o, "+1/+1", n)
            game.remove_counters(o, "-1/-1", n)
            performed = True
    # (What this check did so far may have taken an Equipment's creature away.)
    if attached and not (stand and not performed) and attachments.unattach_illegal_equipment(
            game):  # CR 704.5n
        performed = True
    seen: set[int] = set()
    for o in to_graveyard + doomed if to_graveyard or doomed else ():
        if o.oid in seen or o.oid not in game.objects:
            continue
        seen.add(o.oid)
        if o in to_graveyard:
            game.move(o, GRAVEYARD, cause="sba")
        elif not destroy(game, o, cause="sba"):
            continue  # indestructible (CR 702.12b)
        game.say(f"{o.name} is put into its owner's graveyard.")
        performed = True
    # (Counted before this check's moves, which can only take permanents away, unless a
    # replacement puts one onto the battlefield: after any move the rule asks again.)
    legend = (yield from _legend_rule(game)) if legends > 1 or performed else False
    commander = (yield from _commanders_home(game)) if variant == COMMANDER else False
    if game.commander_moved:
        game.commander_moved.clear()
    if variant == ARCHENEMY and archenemy.scheme_check(game):
        performed = True  # CR 704.6e
    if game.config.planechase and planechase.phenomenon_check(game):
        performed = True  # CR 704.6f
    # Nothing found, not even what did nothing (a player who can't lose, an indestructible
    # creature with lethal damage): the check changed nothing, so it is idempotent until the
    # game changes.
    idle = not (performed or legend or commander or losers or to_graveyard or doomed
                or plus_minus)
    game.sba_idle_at = game.dirty.changes if idle else -1
    game.sba_kept = (table, legend_ids, attached_ids)
    return performed or legend or commander


def _to_examine(game: Game, table: dict[int, Chars] | None
                ) -> tuple[set[Any] | None, list[Obj], set[int], set[int]]:
    """The keys marked since the last check (None: look at everything), the permanents this
    check must look at one by one, and the legendary permanents and those attached or Auras
    among the rest (to be completed from the ones returned).

    After a check that found nothing (``sba_idle_at`` set), a permanent can have come to
    need a state-based action only through a change of its own or of its layered
    characteristics. Every change of an object marks its id (``dirty.since_check``: its
    damage, counters, deathtouch damage with it, attachment, phasing, controller, zone; a
    new object is a new id); a change of the characteristics of objects it doesn't mark (a
    lord entering, an effect ending, a counter on another permanent) drops the layers'
    table, so a table still the same object as the last check's (``sba_kept``) means every
    unmarked permanent has what it had then, and would be found fine again. So the key is
    (the last check found nothing, the layers' table by identity, the marked keys): the
    marked permanents are looked at, in battlefield order, and the others skipped; anything
    else looks at the whole battlefield. The kept id sets lose the marked ids (which may
    have left, phased out or been detached) and gain them back from the loop."""
    marked = game.dirty.since_check
    game.dirty.since_check = set()  # marks made from here on are for the next check
    kept = game.sba_kept
    if game.sba_idle_at < 0 or kept is None or kept[0] is not table:
        return None, list(game.battlefield), set(), set()
    _, legend_ids, attached_ids = kept
    legend_ids -= marked
    attached_ids -= marked
    if not marked:
        return marked, [], legend_ids, attached_ids
    return marked, [o for o in game.battlefield if o.oid in marked], legend_ids, attached_ids


def _attachments_stand(game: Game, marked: set[Any] | None, attached_ids: set[int]) -> bool:
    """Are the Auras and Equipment as legal as the last check (which found nothing) found
    them, so that CR 704.5m-n need not be asked? Their legality reads the attached
    permanent, what it is attached to, their layered characteristics and the players
    (can_enchant, can_equip, the enchant filter, protection, range of influence): so yes
    when ``_to_examine`` found the same table, no player (or other non-object key) was
    marked, and neither an attached permanent nor its host was."""
    if marked is None:
        return False
    if any(k.__class__ is not int for k in marked):
        return False
    objects = game.objects
    for oid in attached_ids:
        o = objects.get(oid)
        if oid in marked or o is None or o.attached_to in marked:
            return False
    return True


def _legend_rule(game: Game) -> Flow:
    """CR 704.5j: a player with two or more legendary permanents of one name keeps one."""
    performed = False
    legends = [o for o in game.battlefield if o.defn.legendary and not o.phased_out]
    if len(legends) < 2:
        return False  # the common case, asked before every priority
    groups: dict[tuple[int, str], list[Obj]] = {}
    for o in legends:
        groups.setdefault((o.controller, o.name), []).append(o)
    for (pid, name), objs in groups.items():
        if len(objs) < 2:
            continue
        def keep_options(objs: list[Obj] = objs) -> list[Action]:
            return [Action(i, "choose_card", f"Keep {o.name} (#{o.oid})", obj=o.oid)
                    for i, o in enumerate(objs) if o.oid in game.objects]

        answer = yield from choose(game, pid, "legend_rule",
                                   f"Legend rule: choose the {name} to keep", keep_options)
        keep = answer.obj if answer is not None else objs[0].oid
        for o in objs:
            if o.oid != keep and o.oid in game.objects:
                game.move(o, GRAVEYARD, cause="legend_rule")
                game.say(f"{o.name} is put into its owner's graveyard (legend rule).")
                performed = True
    return performed


def _commanders_home(game: Game) -> Flow:
    """CR 704.6d / 903.9a: a commander put into a graveyard or exile since the last check may
    go to the command zone; its owner chooses."""
    performed = False
    if game.config.variant != COMMANDER:
        return False
    for oid in list(game.commander_moved):
        o = game.objects.get(oid)
        if o is None or o.zone not in (GRAVEYARD, EXILE) or not game.in_game(o.owner):
            continue
        answer = yield from choose(
            game, o.owner, "commander_zone",
            f"Your commander {o.name} is in your {o.zone}: put it into the command zone?",
            lambda: [Action(0, "yes", "Put it into the command zone"),
                     Action(1, "no", "Leave it there")])
        if answer is not None and answer.kind == "yes" and oid in game.objects:
            game.move(game.objects[oid], COMMAND, cause="commander")
            game.say(f"{o.name} returns to the command zone.")
            performed = True
    return performed
