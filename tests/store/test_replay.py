"""``arbiter replay``: a stored game replays from its seed and commands to its readable log,
and a log that does not match (a tampered state hash) is reported."""

from __future__ import annotations

import io
import random
import sqlite3
from pathlib import Path

import pytest

from arbiter.bots.strategies import random_strategy
from arbiter.server.cli import main
from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.cards.decks import ready_made
from arbiter.server.rules.commands import Act, Concede, to_record
from arbiter.server.rules.plain import config_to_wire
from arbiter.server.store.db import DB_NAME, Store
from arbiter.server.store.records import CommandAppended, GameFinished, GameStarted, Record
from arbiter.server.store.replay_cmd import replay


def _stored_game(path: Path) -> tuple[Store, Table, list[str]]:
    config = GameConfig(players=(PlayerConfig("Ann", ready_made("quick-red").main),
                                 PlayerConfig("Bob", ready_made("quick-green").main)))
    store = Store.open_dir(path)
    records: list[Record] = [GameStarted(1, 1, 1, 7, config_to_wire(config), None)]
    table = Table(config, 7)
    texts = [e.text for e in table.drain_events()]
    rng = random.Random(1)
    n = 0
    while not table.finished and n < 60:
        d = table.pending
        assert d is not None
        cmd = Act(d.player, d.serial, random_strategy({}, d.to_wire(), rng))
        texts += [e.text for e in table.apply(cmd)]
        n += 1
        records.append(CommandAppended(1, 1, n, to_record(cmd),
                                       table.state_hash() if n % 10 == 0 else None, None))
    cmd2 = Concede(1)
    texts += [e.text for e in table.apply(cmd2)]
    records.append(CommandAppended(1, 1, n + 1, to_record(cmd2), None, None))
    assert table.result is not None
    records.append(GameFinished(1, 1, table.result.to_wire(), table.state_hash()))
    store.write(records)
    return store, table, texts


def test_replay_prints_the_games_log_and_checks_its_hashes(tmp_path: Path) -> None:
    store, table, texts = _stored_game(tmp_path)
    out = io.StringIO()
    assert replay(store, 1, out) == 0
    printed = out.getvalue()
    pos = 0
    for text in texts:  # every event's text, in order
        pos = printed.index(text, pos)
    assert "Bob concedes" in printed
    assert printed.count("Winner: Ann.") == 1  # the game's own log line, not said again
    assert f"State hash: {table.state_hash()} (matches the log)" in printed


def test_replay_reports_a_log_that_does_not_match(tmp_path: Path) -> None:
    store, _, _ = _stored_game(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("UPDATE commands SET hash = 'tampered' WHERE n = 20")
    db.commit()
    out = io.StringIO()
    assert replay(store, 1, out) == 3
    assert "state hash differs from the one recorded after command 20" in out.getvalue()
    assert replay(store, 99, io.StringIO()) == 1


def test_the_replay_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store, table, _ = _stored_game(tmp_path)
    store.close()
    assert main(["replay", "--data-dir", str(tmp_path), "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game 1 (room 1, game 1 of its match), seed 7")
    assert f"State hash: {table.state_hash()} (matches the log)" in out
    assert main(["replay", "--data-dir", str(tmp_path), "--list"]) == 0
    assert "game 1: room 1, match game 1, finished: Ann, Bob" in capsys.readouterr().out
    assert main(["replay", "--data-dir", str(tmp_path / "nowhere"), "1"]) == 1


def test_replay_says_where_it_looked_and_takes_a_room_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --data-dir the log may be elsewhere (the server used another folder): the
    message names the folder it looked in and how to choose one; games are found by the
    room number players saw, too (issue 29)."""
    store, _, _ = _stored_game(tmp_path)
    store.close()
    nowhere = tmp_path / "nowhere"
    assert main(["replay", "--data-dir", str(nowhere), "--list"]) == 1
    err = capsys.readouterr().err
    assert f"looked in {nowhere.resolve()}" in err and "--data-dir FOLDER" in err
    assert main(["replay", "--data-dir", str(tmp_path), "--room", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game 1 (room 1, game 1 of its match), seed 7")
    assert main(["replay", "--data-dir", str(tmp_path), "--list", "--room", "1"]) == 0
    assert "game 1: room 1, match game 1" in capsys.readouterr().out
    assert main(["replay", "--data-dir", str(tmp_path), "--room", "2"]) == 1
    assert "no games of room 2" in capsys.readouterr().err
