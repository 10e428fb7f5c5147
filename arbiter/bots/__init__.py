"""The bot core: how a bot plays and when it settles a stalled game, written once for every
bot Arbiter runs. Pure (no I/O, no clock, no trio; it imports only ``arbiter.protocol`` and the
standard library, which tests/tooling/test_layers.py checks), so two thin shells carry it:

- the server's seat bots (``arbiter/server/rooms/bots.py``): a room's deadline for their
  thinking, the room's command path for their commands;
- the network bots (``arbiter/clients/bots/net.py``, ``arbiter bot``): the SDK's replica for
  their views, requests for their commands;

and the in-process games of ``arbiter demo`` and bench/engine.py use its strategies and stall
watch directly (``arbiter/server/local.py``).

- ``strategies.py``: ``random`` and ``heuristic``, functions of a seat's view, its decision and
  the catalog's card data;
- ``stall.py``: when a game has gone nowhere for long enough to call it stalled;
- ``draws.py``: the one draw policy (CR 104.4i): propose, accept or decline.
- ``limited.py``: Limited events: a card's rating, a draft pick and a 40-card deck built from
  a pool (CR 100.2b), functions of card names and the catalog's card data.
"""

from .draws import DrawMove, DrawPolicy
from .stall import DEFAULT_ROUNDS, StallWatch
from .strategies import STRATEGIES, Strategy, heuristic_strategy, random_strategy

__all__ = ["DEFAULT_ROUNDS", "STRATEGIES", "DrawMove", "DrawPolicy", "StallWatch", "Strategy",
           "heuristic_strategy", "random_strategy"]
