"""Tools for testing Arbiter and trying it on one machine, kept out of the server's import path
(as trio keeps its own in ``trio.testing``): nothing under ``arbiter/server`` imports this
package except ``arbiter cluster`` (tests/tooling/test_layers.py)."""
