"""Arbiter: an authoritative server for live Magic-style card games.

The package's folders are its layers (docs/architecture.md): ``arbiter.protocol`` is the wire
contract, ``arbiter.server`` the rules engine, the room core, the transport, the log and the
cluster, ``arbiter.clients`` the SDK, the bots, the terminal and browser clients."""
