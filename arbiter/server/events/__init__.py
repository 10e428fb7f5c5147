"""Limited events (issue 26): sealed and booster draft with Swiss rounds, as pure parts the
event engine composes. ``boosters`` opens a set's boosters from the event's seeded
:class:`~arbiter.server.rules.rng.Rng`; ``draft`` is a booster-draft pod as a state machine
(packs passed left, right, left; packs queue at a slow drafter); ``limited`` checks a deck
built from a player's pool (CR 100.2b); ``swiss`` pairs rounds and ranks players by match
points and the usual tie-breakers. Like the rules engine they are sans-I/O: no clock, no
sockets, no disk, randomness only from an explicitly seeded ``Rng``, refusals as
:class:`~arbiter.protocol.errors.Refusal`, so an event is a pure function of its seed and
its log. docs/rulings.md ("Limited events") lists the choices they make.
"""
