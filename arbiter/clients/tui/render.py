"""What the terminal client shows, as plain functions of the replica: a player's view (the
snapshot map of docs/protocol.md), the room's summary and the latest events. No terminal here:
``app.py`` puts these texts on the screen, and the tests read the same texts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from arbiter.protocol import view_keys

ZONES = {"b": "battlefield", "g": "graveyard", "e": "exile", "s": "stack", "h": "hand",
         "c": "command zone", "l": "library (top card, revealed)"}
STEPS = {"untap": "untap", "upkeep": "upkeep", "draw": "draw", "main1": "first main phase",
         "begin_combat": "beginning of combat", "declare_attackers": "declare attackers",
         "declare_blockers": "declare blockers", "combat_damage": "combat damage",
         "first_strike_damage": "first-strike damage", "end_combat": "end of combat",
         "main2": "second main phase", "end": "end step", "cleanup": "cleanup"}
STATUS = {"in": "playing", "won": "WON", "lost": "LOST", "drew": "DREW", "draw": "DREW",
          "out": "left"}

View = Mapping[Any, Any]


def names_of(summary: Mapping[str, Any] | None) -> dict[int, str]:
    seats = (summary or {}).get("seats", [])
    # Seats are numbered from 0, as the protocol and every other tool number them.
    return {i: (s.get("n") or f"Seat {i}") for i, s in enumerate(seats)}


def _name(names: Mapping[int, str], pid: Any) -> str:
    return names.get(int(pid), f"Seat {int(pid)}") if isinstance(pid, int) else str(pid)


def objects(view: View) -> dict[int, dict[str, Any]]:
    return {k: v for k, v in view.items() if isinstance(k, int)}


def card_text(o: Mapping[str, Any], objs: Mapping[int, Mapping[str, Any]] | None = None,
              names: Mapping[int, str] | None = None) -> str:
    """One object as a person reads it: name, P/T, tapped, damage, counters, combat."""
    name = f"{o.get('n', '?')}: {o['ab']}" if o.get("ab") else str(o.get("n", "?"))
    parts = [name]
    if o.get("pt"):
        parts.append(f"{o['pt'][0]}/{o['pt'][1]}")
    loyalty = view_keys.loyalty(o)
    if loyalty is not None and not o.get("pt"):
        parts.append(f"[loyalty {loyalty}]")  # a planeswalker's loyalty counters (CR 306.5c)
    flags = []
    if o.get("t"):
        flags.append("tapped")
    if o.get("d"):
        flags.append(f"{o['d']} damage")
    for kind, n in view_keys.counters(o).items():
        if kind != "loyalty" or o.get("pt"):
            flags.append(f"{n} {kind}")
    if o.get("kw"):
        flags.extend(o["kw"])
    if o.get("tk"):
        flags.append("token")
    copy_of = view_keys.copy_of(o)
    if copy_of is not None:
        flags.append(f"{copy_of}, as a copy")  # CR 707.2
    if view_keys.is_spell_copy(o):
        flags.append("copy of a spell")  # CR 707.10
    if view_keys.x_value(o):
        flags.append(f"X={view_keys.x_value(o)}")  # CR 107.3a
    if o.get("cm"):
        flags.append("commander")
    if o.get("on"):
        flags.append("ongoing")
    if o.get("x"):
        flags.append("phased out")
    at = o.get("at")
    if at:
        flags.append("attacking " + _ref(at, objs or {}, names or {}))
    blocked = view_keys.blocked_attackers(o)  # "bx": it blocks several (CR 509.1a)
    if blocked:
        flags.append("blocking " + ", ".join(_ref(["o", b], objs or {}, names or {})
                                             for b in blocked))
    if view_keys.chosen_land_type(o):
        flags.append(f"chosen: {view_keys.chosen_land_type(o)}")  # CR 305.6
    if view_keys.chosen_name(o):
        flags.append(f"named {view_keys.chosen_name(o)}")  # CR 614.12b
    if o.get("a") is not None:
        flags.append("attached to " + _ref(["o", o["a"]], objs or {}, names or {}))
    if o.get("tg"):
        shares = view_keys.divided_damage(o)  # divided damage: each target's share (601.2d)
        flags.append("targets " + ", ".join(
            _ref(list(t), objs or {}, names or {})
            + (f" ({shares[i]})" if i < len(shares) else "")
            for i, t in enumerate(view_keys.targets(o))))
    return " ".join(parts) + (f" ({', '.join(flags)})" if flags else "")


def _ref(ref: Any, objs: Mapping[int, Mapping[str, Any]], names: Mapping[int, str]) -> str:
    if isinstance(ref, list) and len(ref) == 2:
        if ref[0] == "p":
            return _name(names, ref[1])
        o = objs.get(ref[1])
        return str(o.get("n", "?")) if o else "an object"
    return str(ref)


def teams_of(view: View) -> list[list[int]]:
    """The teams of a team game, each in its acting order (docs/protocol.md, "g")."""
    return [[int(p) for p in team] for team in (view.get("g") or {}).get("teams") or []]


def shared_of(view: View) -> list[str]:
    """What teammates share: "turns" (CR 805) and "life" (Two-Headed Giant, CR 810.4)."""
    return list((view.get("g") or {}).get("shared") or [])


def _team_names(names: Mapping[int, str], team: list[int]) -> str:
    who = [_name(names, p) for p in team]
    return who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]


def _turn_owner(view: View, names: Mapping[int, str], active: Any) -> str:
    """Whose turn it is: with shared team turns the active player's whole team."""
    if "turns" in shared_of(view):
        for team in teams_of(view):
            if active in team:
                return _team_names(names, team)
    return _name(names, active)


def active_players(view: View) -> set[Any]:
    """Whose turn it is: in Grand Melee every holder of a turn marker taking a turn with it
    (CR 807.4); with shared team turns every player on the active team (CR 805.4a); otherwise
    the active player."""
    markers = view.get("m")
    if markers:
        return {m["p"] for m in markers if m.get("s") == "turn"}
    active = (view.get("t") or [0, None])[1]
    if "turns" in shared_of(view):
        return set(next((team for team in teams_of(view) if active in team), [active]))
    return {active}


def decider(view: View) -> int | None:
    w = view.get("w")
    if isinstance(w, list) and len(w) >= 2 and isinstance(w[0], int):
        return w[0]
    return None


def status_text(view: View, names: Mapping[int, str], *, depth: int, main_room: str,
                room: str, clock: tuple[list[int], int | None] | None = None,
                banner: str | None = None) -> Text:
    """The line above the table: which game, whose turn and step, who has priority, clocks,
    and in capitals whatever a person must not miss (a paused main game, a restart, the end).
    """
    out = Text()
    g = view.get("g") or {}
    if depth > 0:
        out.append(f"MAIN GAME PAUSED: subgame at depth {depth} in room {room} "
                   f"(CR 726)\n", style="bold black on yellow")
    t = view.get("t")
    if t:
        turn, active, step = t[0], t[1], t[2]
        out.append(f"Room {main_room} · game {g.get('n', '?')} · turn {turn} · "
                   f"{_turn_owner(view, names, active)}'s {STEPS.get(step, step)}",
                   style="bold")
        extra = view_keys.extra_turns(view)
        if extra:  # CR 500.7: still to come, the next one first
            out.append(" · extra turns: " + ", ".join(_name(names, p) for p in extra))
    if view.get("pc") is not None:
        out.append(f" · planar controller {_name(names, view['pc'])}")
    w = view.get("w")
    if w == ["subgame"]:
        out.append(" · waiting for the subgame")
    elif isinstance(w, list) and len(w) >= 2:
        kind = "has priority" if w[1] == "priority" else f"decides ({w[1]})"
        out.append(f" · {_name(names, w[0])} {kind}")
        if len(w) == 3:  # Grand Melee: which turn marker's stack (CR 807.5)
            out.append(f" for stack {w[2]}")
    if clock is not None:
        millis, running = clock
        parts = []
        for seat, ms in enumerate(millis):
            mark = "▶" if seat == running else ""
            parts.append(f"{mark}{_name(names, seat)} {ms // 60000}:{ms // 1000 % 60:02d}")
        out.append(" · clocks " + ", ".join(parts))
    if banner:
        out.append("\n" + banner, style="bold white on red")
    return out


def players_text(view: View, names: Mapping[int, str], me: int | None) -> Text:
    """Each player: life, poison, hand, library, mana, counters, status; then the teams (with
    their shared life and poison in Two-Headed Giant) and the range of influence when it is
    limited (CR 801), and Grand Melee's turn markers (CR 807.4)."""
    out = Text()
    active = active_players(view)
    shared = shared_of(view)
    markers = view.get("m")
    deciding = decider(view)
    seats = (view.get("g") or {}).get("seats") or sorted(
        int(k[1:]) for k in view if isinstance(k, str) and k[:1] == "p" and k[1:].isdigit())
    out.append(f"{'':2}{'player':<18}{'life':>5}{'poison':>7}{'hand':>6}{'library':>9}  "
               f"{'mana':<8}status\n", style="underline")
    for pid in seats:
        p = view.get(f"p{pid}")
        if p is None:
            continue
        mark = ("▶" if pid in active else " ") + ("*" if pid == deciding else " ")
        who = _name(names, pid) + (" (you)" if pid == me else "")
        status = STATUS.get(p.get("s", "in"), p.get("s", "?"))
        style = "bold green" if status == "WON" else "bold red" if status == "LOST" else ""
        out.append(f"{mark}{who[:18]:<18}{p.get('l', 0):>5}{p.get('v', 0):>7}{p.get('h', 0):>6}"
                   f"{p.get('y', 0):>9}  {p.get('m', ''):<8}")
        out.append(status, style=style)
        extra = []
        for commander, dmg in (p.get("cd") or {}).items():
            extra.append(f"{dmg} damage from {commander}")
        if p.get("ct"):
            extra.append(f"commander cast {p['ct']}x")
        if "mx" in p:
            extra.append(f"maximum hand size {p['mx']}")
        if p.get("pd"):
            extra.append(f"planar deck {p['pd']}")
        if p.get("sd"):
            extra.append(f"scheme deck {p['sd']}")
        if extra:
            out.append("  (" + ", ".join(extra) + ")")
        out.append("\n")
    for i, team in enumerate(teams_of(view)):
        out.append(f"Team {i + 1}: {_team_names(names, team)}")
        first = view.get(f"p{team[0]}")
        if "life" in shared and first is not None:
            out.append(f" · shared life {first.get('l', 0)}"
                       + (f", poison {first['v']}" if first.get("v") else ""), style="bold")
        if me in team:
            out.append(" (your team)")
        out.append("\n")
    ranges = view.get("r")
    if ranges:
        out.append("Range of influence (CR 801): " + "; ".join(
            f"{_name(names, int(p))} sees {', '.join(_name(names, q) for q in r)}"
            for p, r in sorted(ranges.items())) + "\n")
    if markers:
        out.append(markers_text(markers, names, me))
    offer = view.get("d")
    if offer:
        out.append(f"Draw proposed by {_name(names, offer[0])}; accepted by "
                   f"{', '.join(_name(names, a) for a in offer[1]) or 'nobody yet'}\n",
                   style="bold magenta")
    return out


def nontraditional_text(view: View, names: Mapping[int, str]) -> Text:
    """The face-up plane or phenomenon (Planechase), the schemes in motion (Archenemy) and each
    player's vanguard (Vanguard): public cards of the command zone, each named by kind."""
    out = Text()
    objs = objects(view)
    by_kind: dict[str, list[Mapping[str, Any]]] = {}
    for o in sorted(objs.values(), key=lambda o: int(o.get("i", 0))):
        if o.get("z") == "c" and o.get("ty"):
            by_kind.setdefault(str(o["ty"]), []).append(o)
    for card in by_kind.get("plane", []) + by_kind.get("phenomenon", []):
        who = _name(names, card.get("c", card["o"]))
        out.append(f"{str(card['ty']).capitalize()}: ", style="bold")
        out.append(f"{card['n']} (owned by {_name(names, card['o'])}, controlled by {who})\n")
    if by_kind.get("scheme"):
        out.append("Schemes in motion: ", style="bold")
        out.append("; ".join(f"{card_text(o)} [{_name(names, o['o'])}]"
                             for o in by_kind["scheme"]) + "\n")
    if by_kind.get("vanguard"):
        out.append("Vanguards: ", style="bold")
        out.append("; ".join(f"{_name(names, o['o'])}: {o['n']}"
                             for o in by_kind["vanguard"]) + "\n")
    return out


def markers_text(markers: Sequence[Mapping[str, Any]], names: Mapping[int, str],
                 me: int | None) -> Text:
    """Grand Melee's turn markers (CR 807.4): who holds each, that turn's number and step and
    who has priority for its stack, or that its holder waits; who may act on each stack
    (CR 807.5a), and whether that includes the viewer."""
    out = Text("Turn markers (CR 807):\n", style="bold")
    for m in markers:
        out.append(f"  #{m['n']} {_name(names, m['p'])}: ")
        if m.get("s") == "turn":
            out.append(f"turn {m.get('turn')}, {STEPS.get(m.get('st', ''), m.get('st'))}")
            if m.get("h") is not None:
                out.append(f", priority {_name(names, m['h'])}")
            able = [_name(names, p) for p in m.get("pr", [])]
            out.append(f"; may act on its stack: {', '.join(able) or 'nobody'}")
            if me is not None and me in m.get("pr", []):
                out.append("  (you may act)", style="bold green")
        else:
            out.append("waiting to begin a turn (CR 807.4d)", style="italic")
        if m.get("rm"):
            times = f" {m['rm']} times" if m["rm"] > 1 else ""
            out.append(f"  designated for removal{times} (CR 807.4e)", style="bold red")
        out.append("\n")
    return out


def _stack_line(out: Text, title: str, stack: Sequence[Mapping[str, Any]],
                objs: Mapping[int, Mapping[str, Any]], names: Mapping[int, str]) -> None:
    out.append(f"{title}: ", style="bold")
    if stack:
        out.append(" ← ".join(f"{card_text(o, objs, names)} [{_name(names, o.get('c', o['o']))}]"
                              for o in stack) + "  (top first)\n")
    else:
        out.append("empty\n")


def zones_text(view: View, names: Mapping[int, str], me: int | None = None) -> Text:
    """The plane, schemes and vanguards; the stack (in Grand Melee, each turn marker's stack);
    then each player's battlefield (Auras and Equipment with their hosts), graveyard, exile and
    command zone, and what of theirs is revealed to all (a hand, a library's top card)."""
    out = nontraditional_text(view, names)
    own: list[int] = [] if me is None else next((t for t in teams_of(view) if me in t), [me])
    objs = objects(view)
    stack = sorted((o for o in objs.values() if o.get("z") == "s"),
                   key=lambda o: -int(o.get("i", 0)))
    markers = view.get("m")
    if markers:
        for m in markers:
            if m.get("s") == "turn":
                mine = [o for o in stack if o.get("sk") == m["n"]]
                _stack_line(out, f"Stack {m['n']} ({_name(names, m['p'])}'s turn)", mine, objs,
                            names)
    else:
        _stack_line(out, "Stack", stack, objs, names)
    seats = (view.get("g") or {}).get("seats") or sorted(names)
    for pid in seats:
        out.append(f"\n{_name(names, pid)}\n", style="bold underline")
        for zone, label in (("b", "Battlefield"), ("g", "Graveyard"), ("e", "Exile"),
                            ("c", "Command")):
            cards = sorted((o for o in objs.values() if o.get("z") == zone and not o.get("ty")
                            and int(o.get("c", o.get("o", -1)) if zone == "b" else
                                    o.get("o", -1)) == pid), key=lambda o: int(o.get("i", 0)))
            if not cards and zone == "c":
                continue
            out.append(f"  {label}: ", style="bold")
            shown = _with_attachments(cards, objs, names) if zone == "b" else [
                card_text(o, objs, names) for o in cards]
            out.append(("; ".join(shown) or "—") + "\n")
        _revealed(out, view, pid, objs, names, own)
    return out


def _with_attachments(cards: Sequence[Mapping[str, Any]], objs: Mapping[int, Mapping[str, Any]],
                      names: Mapping[int, str]) -> list[str]:
    """A battlefield's permanents, each Aura or Equipment right after its host when both are
    there ("Grizzly Bears 2/2 + Pacifism"), so what is attached reads with what it is on."""
    oid_of = {id(v): k for k, v in objs.items()}
    here = {oid_of.get(id(o)) for o in cards}
    on_host: dict[int, list[str]] = {}
    for o in cards:
        host = view_keys.attached_to(o)
        if host is not None and host in here:
            on_host.setdefault(host, []).append(str(o.get("n", "?")))
    return [card_text(o, objs, names) + "".join(f" + {a}" for a in on_host.get(oid, []))
            for o in cards
            if (oid := oid_of.get(id(o))) is not None
            and view_keys.attached_to(o) not in here]


def _revealed(out: Text, view: View, pid: int, objs: Mapping[int, Mapping[str, Any]],
              names: Mapping[int, str], hidden_from: Sequence[int]) -> None:
    """The cards of ``pid`` the rules reveal to every viewer: the top of their library kept
    revealed (zone ``l``), and their hand while an opponent has Telepathy, face up in their
    area. The viewer's own hand and their teammates' (``hidden_from``) are in the hand
    panel."""
    if pid not in hidden_from:
        hand = view_keys.revealed(view, pid, view_keys.HAND)
        if hand:
            out.append(f"  Hand, revealed ({len(hand)}): ", style="bold")
            out.append("; ".join(card_text(o, objs, names) for o in hand) + "\n")
    top = view_keys.revealed(view, pid, view_keys.LIBRARY_TOP)
    if top:
        out.append("  Library top (revealed): ", style="bold")
        out.append("; ".join(card_text(o, objs, names) for o in top) + "\n")


def hand_text(view: View, me: int | None, names: Mapping[int, str] | None = None) -> Text:
    """Your hand, then the hands of your teammates, which team games show you (CR 810.5)."""
    out = Text()
    if me is None:
        out.append("Spectating: hands are hidden.", style="italic")
        return out
    mates = next((team for team in teams_of(view) if me in team), [me])
    for pid in [me, *(p for p in mates if p != me)]:
        cards = sorted((o for o in objects(view).values()
                        if o.get("z") == "h" and o.get("o") == pid),
                       key=lambda o: int(o.get("i", 0)))
        if pid != me:
            out.append("\n")
        who = "Your hand" if pid == me else f"{_name(names or {}, pid)}'s hand (teammate)"
        out.append(f"{who} ({len(cards)}): ", style="bold")
        out.append(", ".join(str(o.get("n", "?")) for o in cards) or "empty")
    return out


def result_text(result: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """A finished game in one line: the winners, or a draw, and each other player's end."""
    if result.get("restarted"):
        head = "The game restarted"
    elif result.get("draw"):
        head = "The game is a draw"
    elif result.get("winners"):
        head = " and ".join(_name(names, w) for w in result["winners"]) + " won"
    else:
        head = "Nobody won"
    ends = [f"{_name(names, o['player'])} {o['outcome']} ({o['reason']}, CR {o['rule']})"
            for o in result.get("outcomes", []) if o.get("outcome") != "won"]
    return head + (": " + "; ".join(ends) if ends else "")


def first_choice(decision: Mapping[str, Any]) -> int:
    """Where the menu's cursor starts: on the first action, except in a declaration of
    attackers or blockers (CR 508.1, 509.1), whose first action ends it ("No attacks"): there
    on the first attack or block, so that Enter by habit does not skip the combat."""
    actions = decision.get("actions", [])
    if decision.get("kind") in ("attackers", "blockers"):
        for i, a in enumerate(actions):
            if a.get("kind") != "done":
                return i
    return 0


LONG_LIST = 16  # a decision with more actions than this is searched (a name among ~300)
SHOWN = 20  # matches listed at once


def list_kind(decision: Mapping[str, Any]) -> str | None:
    """The action kind most of a long decision's actions have (the list to search: a card
    name, CR 614.12b), or None when the decision is short enough to list whole."""
    actions = decision.get("actions", [])
    # Priority and the combat declarations are the game's everyday menus: always listed whole.
    if len(actions) <= LONG_LIST or decision.get("kind") in ("priority", "attackers", "blockers"):
        return None
    kinds = [a.get("kind") for a in actions]
    return str(max(dict.fromkeys(kinds), key=kinds.count))


def menu_actions(decision: Mapping[str, Any], find: str = "") -> list[Mapping[str, Any]]:
    """The actions the menu lists: all of them, or for a long list its other actions (done,
    choose_none) and then the first of those whose label has every word typed in ``find``."""
    actions = list(decision.get("actions", []))
    kind = list_kind(decision)
    if kind is None:
        return actions
    words = find.lower().split()
    found = [a for a in actions if a.get("kind") == kind
             and all(w in str(a.get("label", "")).lower() for w in words)]
    return [a for a in actions if a.get("kind") != kind] + found[:SHOWN]
