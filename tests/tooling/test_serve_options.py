"""arbiter serve's options come from the settings classes: each flag's default is its field's,
and a flag given replaces only its field."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from arbiter.server.net.server import ServerConfig
from arbiter.server.serve_cmd import OPTIONS, add_arguments, config_from_args


def _parse(*argv: str) -> ServerConfig:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return config_from_args(parser.parse_args(list(argv)))


def test_no_flags_give_the_settings_classes_defaults() -> None:
    assert _parse() == ServerConfig()


def test_each_flag_sets_its_own_field() -> None:
    config = _parse("--grace", "30", "--rate", "7.5", "--session-ttl", "60", "--port", "0",
                    "--gc-freeze", "0", "--max-waiting-per-address", "3")
    assert config.hub.grace == 30 and config.limits.rate == 7.5
    assert config.hub.sessions.ttl == 60 and config.port == 0
    assert config.gc_freeze_every is None  # 0 turns it off
    assert config.hub.max_waiting_per_address == 3
    assert dataclasses.replace(config, hub=ServerConfig().hub, limits=ServerConfig().limits,
                               port=8765, gc_freeze_every=0.1) == ServerConfig()


def test_every_option_names_a_real_field_and_its_help_its_default() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    text = parser.format_help()
    for option in OPTIONS:
        assert option.field in {f.name for f in dataclasses.fields(option.owner)}
        assert option.flag in text


def test_every_flag_has_a_description() -> None:
    """Each flag of ``serve --help`` says what it does (``--log-level`` had no words)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    for action in parser._actions:
        if action.option_strings and action.dest != "help":
            assert action.help, f"{action.option_strings[0]} has no description"
    assert parser.parse_args(["--log-level", "warning"]).log_level == "WARNING"


def test_a_seed_is_for_tests_only() -> None:
    with pytest.raises(SystemExit):
        _parse("--seed", "3")
    assert _parse("--seed", "3", "--allow-scenarios").seed == 3
