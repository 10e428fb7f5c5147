"""A table: the players, their physical cards, and a stack of games (CR 724, 726).

Only the top game runs; the games beneath it are suspended exactly as they were (CR 726.1a).
A restart replaces one game with a new one built from the table's data (CR 724), never by
cleaning the old game in place. Every change to a table arrives as a command
(:mod:`arbiter.server.rules.commands`) through :meth:`Table.apply`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

from arbiter.protocol.errors import Code, Refusal

from . import ending, flow, melee, nontraditional, reveals
from .cards.vocab import CardFilter
from .commands import Act, Command, Concede, DrawOffer, Penalty
from .config import (
    COMMANDER,
    GRAND_MELEE,
    GameConfig,
    PlayerConfig,
    Scenario,
    card_def,
    validate,
)
from .flow import random_starting_player, reset_loop_watch
from .game import Event, Flow, Game
from .melee import seat_at_random
from .results import GameResult
from .rng import Rng
from .state import (
    BATTLEFIELD,
    COMMAND,
    EXILE,
    HAND,
    LIBRARY,
    PLANAR_DECK,
    REFRESH,
    SCHEME_DECK,
    Card,
    Decision,
    GameEnded,
    Obj,
    RestartRequest,
    SubgameRequest,
)


class Table:
    def __init__(self, config: GameConfig, seed: int) -> None:
        validate(config)
        self.seed = seed
        self.rng = Rng(seed)
        if config.variant == GRAND_MELEE and config.seating is None and config.scenario is None:
            config = seat_at_random(config, self.rng)  # CR 807.3
        self.config = config
        self._oid = 0
        self.timestamp = 0
        self.serial = 0
        self.cards: dict[int, Card] = {}
        self.outside: dict[int, list[Card]] = {}
        self.starting_decks: dict[int, list[str]] = {}
        self.games: list[Game] = []
        self.history: list[GameResult] = []  # every game that ended, restarts included
        self.events: list[Event] = []
        self.result: GameResult | None = None
        self._game_numbers = 0
        decks: dict[int, list[Card]] = {}
        for pid, pc in enumerate(config.players):
            deck: list[Card] = []
            commander_marked = False
            for name in pc.deck:
                card = self._new_card(pid, name)
                if pc.commander == name and not commander_marked:
                    card.commander = True
                    commander_marked = True
                deck.append(card)
            # The nontraditional cards the game uses (config.validate allows no others); a
            # scenario places its own.
            if config.scenario is None:
                extra = [*pc.planar_deck, *pc.scheme_deck, *([pc.vanguard] if pc.vanguard
                                                              else [])]
                deck.extend(self._new_card(pid, name) for name in extra)
            decks[pid] = deck
            self.starting_decks[pid] = list(pc.deck)
            self.outside[pid] = [self._new_card(pid, name) for name in pc.sideboard]
        main = self._new_game(list(range(len(config.players))), depth=0, parent=None)
        self.games.append(main)
        if config.scenario is None:
            self._deal(main, decks, exempt=[])
            main.flow = _play(main)
        else:
            self._set_up_scenario(main, config.scenario)
            sc = config.scenario
            main.flow = _play(main, resume=(sc.active, sc.turn, sc.step))
        self._run(main, None)

    # ------------------------------------------------------------------ ids

    def new_oid(self) -> int:
        self._oid += 1
        return self._oid

    def _new_card(self, owner: int, name: str) -> Card:
        cid = len(self.cards) + 1
        card = Card(cid, owner, card_def(name, self.config))
        self.cards[cid] = card
        return card

    def _new_game(self, players: list[int], *, depth: int, parent: Game | None) -> Game:
        self._game_numbers += 1
        return Game(self, self._game_numbers, self.config, players, rng=self.rng.fork(),
                    depth=depth, parent=parent)

    def _deal(self, game: Game, decks: dict[int, list[Card]], exempt: list[Card]) -> None:
        """Set up zones: commanders into the command zone (CR 103.2c / 903.6), nontraditional
        cards to their supplementary decks or, for a vanguard, the command zone, the rest of
        each deck as its library; exempt cards of a restart wait in exile (CR 724.4)."""
        for pid, cards in decks.items():
            for card in cards:
                zone = nontraditional.home(card.defn)
                if zone is None:
                    commander = card.commander and game.config.variant == COMMANDER
                    zone = COMMAND if commander else LIBRARY
                game.new_object(card.defn, pid, pid, zone, card=card)
        for card in exempt:
            game.new_object(card.defn, card.owner, card.owner, EXILE, card=card)

    def _set_up_scenario(self, game: Game, sc: Scenario) -> None:
        for pid, setup in enumerate(sc.players):
            pc = self.config.players[pid]

            def place(names: tuple[str, ...], zone: str, pid: int = pid,
                      pc: PlayerConfig = pc) -> list[Obj]:
                placed = []
                for name in names:
                    card = self._new_card(pid, name)
                    card.commander = name == pc.commander
                    placed.append(game.new_object(card.defn, pid, pid, zone, card=card))
                return placed

            place(tuple(reversed(setup.library)), LIBRARY)
            place(tuple(reversed(setup.planar_deck)), PLANAR_DECK)
            place(tuple(reversed(setup.scheme_deck)), SCHEME_DECK)
            if self.config.vanguard and pc.vanguard is not None:
                place((pc.vanguard,), COMMAND)
            place(setup.hand, HAND)
            place(setup.graveyard, "graveyard")
            place(setup.exile, EXILE)
            place(setup.command, COMMAND)
            for i, obj in enumerate(place(setup.battlefield, BATTLEFIELD)):
                game.enter_silently(obj)
                obj.tapped = i in setup.tapped
                obj.since = self.timestamp + 1 if sc.sick else 0
                for index, kind, amount in setup.counters:
                    if index == i:
                        obj.counters[kind] = amount
            ps = game.players[pid]
            # CR 810.4, 810.10: teammates sharing totals take them from whichever of them the
            # scenario gives them for (config.validate allows no disagreement).
            mates = [sc.players[q] for q in game.life_mates.get(pid, (pid,))]
            lives = [m.life for m in mates if m.life is not None]
            ps.life = lives[0] if lives else ps.life
            ps.poison = max(m.poison for m in mates)
            ps.kept = True
        for pid, setup in enumerate(sc.players):
            for owner, amount in setup.commander_damage:
                commander = next(c for c in self.cards.values()
                                 if c.owner == owner and c.commander)
                game.players[pid].commander_damage[commander.cid] = amount
        game.control_changed()
        game.starting_player = sc.active
        if self.config.planechase:
            from .planechase import set_planar_controller

            set_planar_controller(game, sc.active)

    # ------------------------------------------------------------------ the public surface

    @property
    def top(self) -> Game:
        return self.games[-1]

    @property
    def main(self) -> Game:
        return self.games[0]

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def pending(self) -> Decision | None:
        return None if self.finished else self.top.pending

    def game(self, number: int) -> Game:
        for g in self.games:
            if g.number == number:
                return g
        raise Refusal(Code.UNKNOWN_GAME, f"no game {number} is being played here")

    def decision_for(self, player: int) -> Decision | None:
        d = self.pending
        return d if d is not None and d.player == player else None

    def drain_events(self) -> list[Event]:
        out, self.events = self.events, []
        return out

    def apply(self, cmd: Command) -> list[Event]:
        """Apply one command; raise :class:`Refusal` (changing nothing) if it is refused."""
        _COMMANDS[type(cmd)][1](self, cmd)
        return self.drain_events()

    def check(self, cmd: Command) -> None:
        """Raise the :class:`Refusal` that :meth:`apply` would, without changing anything."""
        _COMMANDS[type(cmd)][0](self, cmd)

    # ------------------------------------------------------------------ acting

    def _checked_action(self, player: int, serial: int, action: int) -> tuple[Game, Decision]:
        if self.finished:
            raise Refusal(Code.GAME_OVER, "the game is over")
        game = self.top
        d = game.pending
        if d is None:
            raise Refusal(Code.NO_DECISION, "nobody is being asked to choose anything")
        if d.player != player:
            raise Refusal(Code.NOT_YOUR_DECISION,
                          f"{game.name(d.player)} must choose now ({d.kind}), not "
                          f"player {player}")
        if serial != d.serial:
            raise Refusal(Code.STALE_DECISION,
                          f"decision {serial} is no longer pending; the current one is "
                          f"{d.serial}")
        if not 0 <= action < len(d.actions):
            raise Refusal(Code.UNKNOWN_ACTION,
                          f"decision {d.serial} has actions 0..{len(d.actions) - 1}; "
                          f"{action} is not one of them")
        return game, d

    def act(self, player: int, serial: int, action: int, manual: bool = False) -> None:
        """``manual``: the player pays the mana of the spell or ability this action casts or
        activates by hand (a ``pay_mana`` decision, manual_payment.py); meaningless, and
        ignored, for any other action."""
        game, d = self._checked_action(player, serial, action)
        chosen = d.actions[action]
        if not d.forced:
            reset_loop_watch(game)
        game.pending = None
        game.dirty.add_quiet("w")
        game.bump_version()
        if manual:
            game.pay_by_hand = player
        self._run(game, chosen)
        game.pay_by_hand = None  # never outlives its act, whatever the action was

    # ------------------------------------------------------------------ leaving

    def _game_for(self, player: int, number: int | None) -> Game:
        if self.finished:
            raise Refusal(Code.GAME_OVER, "the game is over")
        if number is not None:
            game = self.game(number)
            if not game.in_game(player):
                raise Refusal(Code.NOT_IN_GAME,
                              f"player {player} is not in game {number}")
            return game
        for game in reversed(self.games):
            if game.in_game(player):
                return game
        raise Refusal(Code.NOT_IN_GAME, f"player {player} is in no game here")

    def concede(self, player: int, game_number: int | None = None) -> None:
        """CR 104.3a: a player may concede at any time. Conceding a game beneath a subgame also
        takes the player out of every subgame above it (see docs/rulings.md)."""
        game = self._game_for(player, game_number)
        self._remove(game, player, "concession")

    def _check_penalty(self, player: int, reason: str, game_number: int | None) -> Game:
        if reason not in ("judge", "clock"):
            raise Refusal(Code.NOT_AUTHORISED, f"unknown penalty reason {reason!r}")
        return self._game_for(player, game_number)

    def penalize(self, player: int, reason: str = "judge", game_number: int | None = None
                 ) -> None:
        """CR 104.3k: a game loss given by a judge; also used for a chess clock running out."""
        game = self._check_penalty(player, reason, game_number)
        self._remove(game, player, reason)

    def _remove(self, game: Game, player: int, reason: str) -> None:
        index = self.games.index(game)
        try:
            ending.lose(game, {player: reason})
        except GameEnded:
            self._game_ended(game)
            return
        # A player no longer in a game can't go on playing its subgames.
        for above in list(self.games[index + 1:]):
            if above not in self.games or not above.in_game(player):
                continue
            try:
                ending.lose(above, {player: reason})
            except GameEnded:
                self._game_ended(above)
                return
        if not self.finished:
            self._run(self.top, REFRESH)

    # ------------------------------------------------------------------ intentional draws

    def _check_draw_offer(self, player: int, op: str, number: int | None) -> Game:
        game = self._game_for(player, number)
        offer = game.draw_offer
        if op == "propose":
            if offer is not None:
                raise Refusal(Code.DRAW_OFFER, "a draw has already been proposed")
        elif op in ("accept", "decline"):
            if offer is None:
                raise Refusal(Code.DRAW_OFFER, "no draw has been proposed")
            if op == "accept" and player in offer[1]:
                raise Refusal(Code.DRAW_OFFER, "you have already accepted")
        elif op == "withdraw":
            if offer is None or offer[0] != player:
                raise Refusal(Code.DRAW_OFFER, "you have no draw proposal to withdraw")
        else:
            raise Refusal(Code.DRAW_OFFER, f"unknown draw offer operation {op!r}")
        return game

    def draw_offer(self, player: int, op: str, number: int | None = None) -> None:
        """CR 104.4i: every player still in the game must agree; the proposal lapses when
        anyone declines or withdraws it, or when the game state changes."""
        game = self._check_draw_offer(player, op, number)
        name = game.name(player)
        if op == "propose":
            game.draw_offer = (player, frozenset({player}), game.version)
            game.say(f"{name} proposes a draw.", "draw_offer", player=player, op=op)
        elif op == "accept":
            assert game.draw_offer is not None
            proposer, accepted, version = game.draw_offer
            accepted = accepted | {player}
            game.draw_offer = (proposer, accepted, version)
            game.say(f"{name} accepts the draw.", "draw_offer", player=player, op=op)
            if set(game.players_in_game()) <= accepted:
                try:
                    ending.draw(game, None, "agreement")
                except GameEnded:
                    self._game_ended(game)
                    return
        else:
            game.draw_offer = None
            verb = "declines" if op == "decline" else "withdraws"
            game.say(f"{name} {verb} the draw.", "draw_offer", player=player, op=op)
        game.dirty.add("d")

    # ------------------------------------------------------------------ running a game

    def _run(self, game: Game, value: Any) -> None:
        """Drive ``game``'s flow until someone must decide, handling subgame and restart
        requests on the way."""
        while True:
            assert game.flow is not None
            try:
                request = game.flow.send(value)
            except GameEnded:
                self._game_ended(game)
                return
            except StopIteration:  # pragma: no cover - flows end by GameEnded
                return
            if isinstance(request, Decision):
                self.serial += 1
                request.serial = self.serial
                request.game = game.number
                game.pending = request
                game.dirty.add_quiet("w")
                if game.continuous or game.global_sources or game.chars_shown or game.revealed:
                    game.settle_chars()  # tested here: most decisions have nothing layered
                return
            if isinstance(request, SubgameRequest):
                game = self._start_subgame(game, request)
            elif isinstance(request, RestartRequest):
                game = self._restart(game, request)
            value = None

    def _game_ended(self, game: Game) -> None:
        if game not in self.games:
            return
        # Anything above an ended game is abandoned: it existed only inside that game.
        while self.top is not game:
            self._abandon(self.top)
        assert game.result is not None
        game.pending = None
        game.dirty.add_quiet("w")
        reveals.settle(game)  # no decision follows to settle what its last action revealed
        self.history.append(game.result)
        if game.depth == 0:
            self.result = game.result
            return
        self._close_subgame(game)
        parent = self.top
        parent.suspended = False
        self.events.append(Event("subgame_ended", f"Subgame {game.number} is over.",
                                 {"game": game.number, "parent": parent.number,
                                  "result": game.result}, game.number))
        self._run(parent, game.result)

    def _abandon(self, sub: Game) -> None:
        if sub.flow is not None:
            sub.flow.close()
        sub.result = GameResult(sub.number, (), False, False, (), abandoned=True)
        for p in sub.players_in_game():
            sub.players[p].in_game = False
        self.history.append(sub.result)
        self._close_subgame(sub)
        self.events.append(Event("subgame_ended", f"Subgame {sub.number} is abandoned.",
                                 {"game": sub.number, "parent": self.top.number,
                                  "result": sub.result}, sub.number))

    # ------------------------------------------------------------------ subgames (726)

    def _start_subgame(self, parent: Game, req: SubgameRequest) -> Game:
        players = [p for p in req.players if parent.in_game(p)]
        sub = self._new_game(players, depth=parent.depth + 1, parent=parent)
        parent.suspended = True
        parent.pending = None
        parent.dirty.add_quiet("w")
        # CR 726.2: each player's main-game library becomes their subgame library.
        for p in players:
            for obj in list(parent.library(p)):
                assert obj.card is not None
                parent.remove_object(obj)
                sub.new_object(obj.defn, p, p, LIBRARY, card=obj.card)
        # CR 726.2c: commanders move from the main-game command zone to the subgame's.
        for obj in list(parent.command):
            if obj.is_commander and obj.owner in players and obj.card is not None:
                parent.remove_object(obj)
                sub.new_object(obj.defn, obj.owner, obj.owner, COMMAND, card=obj.card)
        nontraditional.into_subgame(parent, sub, players)  # CR 726.2a-b
        self.games.append(sub)
        # CR 726.2: a random starting player, drawn here so the event can name them.
        starting = random_starting_player(sub) if players else None
        sub.flow = _play(sub, starting_player=starting)
        parent.say(f"A subgame begins (depth {sub.depth}) among "
                   f"{', '.join(parent.name(p) for p in players)}.", "subgame_started",
                   game=sub.number, parent=parent.number, depth=sub.depth,
                   players=list(players), starting_player=starting)
        return sub

    def _close_subgame(self, sub: Game) -> None:
        """CR 726.5: every traditional card in the subgame (exile and phased-out ones included,
        the command zone excepted) goes into its owner's main-game library, which is then
        shuffled; the rest of the subgame ceases to exist. Commanders in the subgame command
        zone go back to the main-game command zone (CR 726.5c); every plane, phenomenon and
        scheme, face up or not, goes back into its owner's supplementary deck, which is then
        shuffled (CR 726.5a), and vanguards return to the main-game command zone (726.5b)."""
        parent = sub.parent
        assert parent is not None
        touched: set[int] = set()
        piles: set[int] = set()

        def home(card: Card, zone: str) -> None:
            supplementary = nontraditional.home(card.defn)
            if supplementary is not None:
                parent.new_object(card.defn, card.owner, card.owner, supplementary, card=card)
                piles.add(card.owner)
            elif zone == COMMAND and card.commander:
                parent.new_object(card.defn, card.owner, card.owner, COMMAND, card=card)
            else:
                parent.new_object(card.defn, card.owner, card.owner, LIBRARY, card=card)
                touched.add(card.owner)

        for obj in list(sub.objects.values()):
            card = obj.card
            if card is None:
                continue
            sub.remove_object(obj)
            if not parent.in_game(card.owner):
                parent.departed_cards.setdefault(card.owner, []).append(card)
            else:
                home(card, obj.zone)
        # Cards of players who left the subgame but are still in the main game go home too.
        for owner, cards in sub.departed_cards.items():
            for card in cards:
                if parent.in_game(owner):
                    home(card, "")
                else:
                    parent.departed_cards.setdefault(owner, []).append(card)
        sub.departed_cards = {}
        for p in touched:
            parent.shuffle(p)
        nontraditional.back_from_subgame(parent, piles)
        self.games.remove(sub)

    # ------------------------------------------------------------------ restarts (724)

    def _restart(self, old: Game, req: RestartRequest) -> Game:
        """CR 724: the game ends with no winner, and everyone still in it starts a new one
        built from the table's data: who is playing, seats, and which cards each owns."""
        if old.flow is not None:
            old.flow.close()
        players = old.players_in_game()
        old.result = GameResult(old.number, (), False, True, ())
        self.history.append(old.result)
        exempt_ids = set(req.exempt)
        decks: dict[int, list[Card]] = {p: [] for p in players}
        exempt: list[Card] = []
        for obj in sorted(old.objects.values(), key=lambda o: o.oid):
            card = obj.card
            if card is None:
                continue  # tokens and abilities are gone (CR 724.2)
            if card.cid in exempt_ids:
                exempt.append(card)  # CR 724.5
            elif card.owner in decks:
                decks[card.owner].append(card)
            else:
                old.departed_cards.setdefault(card.owner, []).append(card)
        new = self._new_game(players, depth=old.depth, parent=old.parent)
        new.departed_cards = old.departed_cards  # cards that left with a player stay gone
        old.departed_cards = {}
        new.outcomes = dict(old.outcomes)  # and so do the results of players who left
        self._deal(new, decks, exempt)
        new.restart_followup = (req.controller, exempt)
        self.games[self.games.index(old)] = new
        for p in old.seats:
            old.players[p].in_game = False
        new.flow = _play(new, starting_player=req.controller)  # CR 724.1a
        old.say(f"The game restarts; {old.name(req.controller)} will take the first turn.",
                "game_restarted", old_game=old.number, game=new.number,
                starting_player=req.controller, depth=new.depth)
        return new

    # ------------------------------------------------------------------ outside the game

    def outside_candidates(self, game: Game, pid: int, flt: CardFilter
                           ) -> list[tuple[str, tuple[Any, ...]]]:
        """Cards ``pid`` owns outside ``game``: the sideboard, and inside a subgame every object
        of the games beneath it (CR 726.4). In Commander, CR 903.11 limits the choice."""
        out: list[tuple[str, tuple[Any, ...]]] = []
        seen: set[tuple[str, str]] = set()

        def allowed(card: Card) -> bool:
            if flt.types and not (card.defn.types & flt.types):
                return False
            if game.config.variant == COMMANDER:
                names_in_game = {o.name for o in game.objects.values() if o.owner == pid}
                commander = next((c for c in self.cards.values()
                                  if c.owner == pid and c.commander), None)
                identity = commander.defn.color_identity if commander else frozenset()
                if (card.name in self.starting_decks[pid] or card.name in names_in_game
                        or not card.defn.color_identity <= identity):
                    return False  # CR 903.11
            return True

        for card in self.outside.get(pid, []):
            if allowed(card) and (card.name, "sideboard") not in seen:
                seen.add((card.name, "sideboard"))
                out.append((f"{card.name} (sideboard)", ("side", card.cid)))
        lower = game.parent
        while lower is not None:
            for obj in sorted(lower.objects.values(), key=lambda o: o.oid):
                if obj.card is None or obj.owner != pid or not allowed(obj.card):
                    continue
                where = f"game {lower.number} {obj.zone}"
                if (obj.name, where) in seen:
                    continue
                seen.add((obj.name, where))
                out.append((f"{obj.name} ({where})", ("game", lower.number, obj.oid)))
            lower = lower.parent
        return out

    def bring_in(self, game: Game, pid: int, key: tuple[Any, ...]) -> Obj | None:
        """Move a card from outside ``game`` into ``pid``'s hand there (CR 400.11)."""
        if key[0] == "side":
            card = next(c for c in self.outside[pid] if c.cid == key[1])
            self.outside[pid].remove(card)
        else:
            lower = self.game(key[1])
            obj = lower.objects[key[2]]
            assert obj.card is not None
            card = obj.card
            from_zone = obj.zone
            lower.remove_object(obj)  # out of combat and control too, as for any departure
            # CR 726.4a: main-game "leaves" abilities trigger now but wait for the main game.
            lower.emit("zone_change", obj=obj, new=None, from_zone=from_zone, to_zone="subgame")
        return game.new_object(card.defn, pid, pid, HAND, card=card)

    # ------------------------------------------------------------------ invariants

    def card_census(self) -> Counter[int]:
        """Where every card is: in some game on the stack, outside the game, or gone with a
        player who left (Conservation invariant)."""
        seen: Counter[int] = Counter()
        for g in self.games:
            for obj in g.objects.values():
                if obj.card is not None:
                    seen[obj.card.cid] += 1
            for cards in g.departed_cards.values():
                for c in cards:
                    seen[c.cid] += 1
        for cards in self.outside.values():
            for c in cards:
                seen[c.cid] += 1
        return seen

    def state_hash(self) -> str:
        """A stable hash of the whole table (Determinism invariant)."""
        from .hashing import table_state

        return hashlib.blake2b(repr(table_state(self)).encode(), digest_size=16).hexdigest()


def _play(game: Game, *, starting_player: int | None = None,
          resume: tuple[int, int, str] | None = None) -> Flow:
    """A game from its start (or a scenario's) to its end: in Grand Melee several turns at
    once, one per turn marker (CR 807.4); otherwise one turn after another."""
    play = melee.play if game.config.variant == GRAND_MELEE else flow.play
    return play(game, starting_player=starting_player, resume=resume)


# Each command: how to check it without changing anything, and how to apply it. One table, so
# that ``check`` can never disagree with ``apply`` about which commands exist.
_COMMANDS: dict[type[Any], tuple[Callable[[Table, Any], object],
                                 Callable[[Table, Any], object]]] = {
    Act: (lambda t, c: t._checked_action(c.player, c.serial, c.action),
          lambda t, c: t.act(c.player, c.serial, c.action, c.manual)),
    Concede: (lambda t, c: t._game_for(c.player, c.game),
              lambda t, c: t.concede(c.player, c.game)),
    DrawOffer: (lambda t, c: t._check_draw_offer(c.player, c.op, c.game),
                lambda t, c: t.draw_offer(c.player, c.op, c.game)),
    Penalty: (lambda t, c: t._check_penalty(c.player, c.reason, c.game),
              lambda t, c: t.penalize(c.player, c.reason, c.game)),
}
