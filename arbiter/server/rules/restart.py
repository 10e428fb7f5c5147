"""The end of a restart (CR 724.4), which happens in the restarted game's first untap step.

The restart itself (ending the game and building the new one) is the table's
(``Table._restart``); what is left for the new game's flow to do is here, apart from both so
that the flow does not import the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def finish_restart(game: Game) -> None:
    """CR 724.4: just before the first untap step, the rest of the restart effect happens:
    the exempt cards go onto the battlefield under the restart's controller, with nobody
    holding priority; what that triggers waits for the upkeep. The permanents count as
    controlled since the first turn began (Karn Liberated's rulings), so creatures among them
    can attack in it (CR 302.6)."""
    assert game.restart_followup is not None
    controller, cards = game.restart_followup
    game.restart_followup = None
    wanted = {c.cid for c in cards}
    for obj in [o for o in game.exile if o.card is not None and o.card.cid in wanted]:
        new = game.put_onto_battlefield(obj, controller, cause="restart")
        if new is not None:
            new.since = min(new.since, game.players[controller].turn_started)
            game.say(f"{new.name} enters the battlefield under {game.name(controller)}'s "
                     "control.")
