"""Planechase, Archenemy and Vanguard inside subgames and restarts: supplementary decks go into
a subgame and come back, face-up planes and schemes stay in the main game's command zone, a
vanguard goes with its player (CR 726.2a-b, 726.5a-b), and a restart involves every
nontraditional card (CR 724.2)."""

from __future__ import annotations

from arbiter.server.rules.game import Game

from .helpers import G, Scene

PLANES = ("Goldmeadow", "Lethe Lake", "Panopticon", "Fields of Summer", "The Hippodrome",
          "Astral Arena", "Sanctum of Serra", "Academy at Tolaria West", "Mutual Epiphany")
SCHEMES = ("Look Skyward and Despair", "The Iron Guardian Stirs", "Know Naught but Fire",
           "Your Puny Minds Cannot Fathom")


def _scene() -> Scene:
    """Planechase and Vanguard in an Archenemy game: player 0, the archenemy, has Krosa face up
    and The Very Soil Shall Shake in motion (in their second main phase, so no other scheme
    is set in motion); everyone has a planar deck and a vanguard."""
    s = (Scene(3, variant="archenemy", planechase=True, vanguard=True).archenemy(0)
         .plane(0, "Krosa").scheme(0, "The Very Soil Shall Shake")
         .scheme_deck(0, *SCHEMES).vanguard(0, "Maraxus").vanguard(1, "Gerrard")
         .vanguard(2, "Urza").hand(0, "Tale Within a Tale", "Second Beginning")
         .at("main2", 0))
    for p in range(3):
        s.planar_deck(p, *PLANES)
    return s


def _cids(game: Game, zone: str, pid: int | None = None) -> set[int]:
    return {o.card.cid for o in game.zone(zone, pid) if o.card is not None}


def _vanguards(game: Game) -> dict[int, str]:
    return {o.owner: o.name for o in game.command if o.defn.is_("Vanguard")}


def _subgame(g: G) -> tuple[Game, Game]:
    main = g.game
    g.cast(0, "Tale Within a Tale").pass_(3)
    assert g.game is not main
    return main, g.game


def test_726_2a_supplementary_decks_go_into_the_subgame_face_up_cards_stay() -> None:
    g = _scene().start()
    main = g.game
    planar = {p: _cids(main, "planar_deck", p) for p in range(3)}
    schemes = _cids(main, "scheme_deck", 0)
    main, sub = _subgame(g)
    # Each player's planar deck, and the archenemy's scheme deck, moved to the subgame.
    assert {p: _cids(sub, "planar_deck", p) for p in range(3)} == planar
    assert _cids(sub, "scheme_deck", 0) == schemes
    assert not any(main.planar_deck(p) for p in range(3)) and not main.scheme_deck(0)
    # The face-up plane and the scheme in motion stay in the main game's command zone.
    assert sorted(o.name for o in main.command if not o.defn.is_("Vanguard")) == [
        "Krosa", "The Very Soil Shall Shake"]
    assert not [o for o in sub.command if o.defn.planar or o.defn.is_("Scheme")]
    # The subgame is a Planechase game too: once its mulligans are over, its starting
    # player sets a starting plane from the deck they brought (CR 103.7).
    g.keep_hands()
    (plane,) = [o for o in sub.command if o.defn.planar]
    assert plane.owner == sub.starting_player
    assert len(sub.planar_deck(sub.starting_player)) < len(planar[sub.starting_player])


def test_726_2b_a_vanguard_goes_with_its_player_into_the_subgame() -> None:
    g = _scene().start()
    main, sub = _subgame(g)
    assert _vanguards(sub) == {0: "Maraxus", 1: "Gerrard", 2: "Urza"}
    assert _vanguards(main) == {}
    # Its modifiers hold in the subgame: the archenemy's 40 and Maraxus's +2; Gerrard's hand
    # of three; Urza's +10.
    assert [sub.players[p].life for p in range(3)] == [42, 20, 30]
    assert [len(sub.hand(p)) for p in range(3)] == [8, 3, 6]


def test_726_5a_and_726_5b_everything_goes_back_when_the_subgame_ends() -> None:
    g = _scene().start()
    main = g.game
    planar = {p: _cids(main, "planar_deck", p) for p in range(3)}
    schemes = _cids(main, "scheme_deck", 0)
    face_up = {o.card.cid for o in main.command if o.card is not None and not
               o.defn.is_("Vanguard")}
    main, sub = _subgame(g)
    g.keep_hands()
    assert [o for o in sub.command if o.defn.planar]  # a plane face up in the subgame
    g.concede(1)
    g.concede(2)
    assert g.table.top is main
    # CR 726.5a: every plane that began the subgame in a planar deck, the face-up one too, is
    # back in its owner's planar deck; the scheme deck is back whole.
    assert {p: _cids(main, "planar_deck", p) for p in range(3)} == planar
    assert _cids(main, "scheme_deck", 0) == schemes
    assert {o.card.cid for o in main.command if o.card is not None and not
            o.defn.is_("Vanguard")} == face_up
    # CR 726.5b: the vanguards are back in the main game's command zone.
    assert _vanguards(main) == {0: "Maraxus", 1: "Gerrard", 2: "Urza"}


def test_724_2_a_restart_involves_every_nontraditional_card() -> None:
    g = _scene().start()
    old = g.game
    planar = {p: _cids(old, "planar_deck", p) | {o.card.cid for o in old.command
                                                if o.owner == p and o.defn.planar and o.card}
              for p in range(3)}
    schemes = _cids(old, "scheme_deck", 0) | {o.card.cid for o in old.command
                                             if o.defn.is_("Scheme") and o.card}
    g.cast(0, "Second Beginning").pass_(3)
    new = g.game
    assert new is not old
    # Every planar card is in a planar deck again, every scheme in the scheme deck (the one
    # that was in motion included), every vanguard in the command zone.
    assert {p: _cids(new, "planar_deck", p) for p in range(3)} == planar
    assert _cids(new, "scheme_deck", 0) == schemes
    assert _vanguards(new) == {0: "Maraxus", 1: "Gerrard", 2: "Urza"}
    assert [new.players[p].life for p in range(3)] == [42, 20, 30]
    g.keep_hands()
    # The new game sets a starting plane; its first turn is the restart's controller's
    # (CR 724.1a), who, as the archenemy, sets a scheme in motion in their main phase.
    (plane,) = [o for o in new.command if o.defn.planar]
    assert plane.owner == new.starting_player == 0
    g.until("main1", 0)
    assert [o.name for o in new.command if o.defn.is_("Scheme")]
