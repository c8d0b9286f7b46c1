# Whole games on the real RP2040 port (the emulated Pico, tests/rp2040): a
# 2-player game and a 3-player game to 121 played by holding the point
# buttons on their GPIO pins, each synced by `cribboard sync` and stored
# once, with the points the presses made.
import json
import sys

import pytest
from clirun import cli
from pico import Pico
from picoplay import THREE_PLAYERS, TWO_PLAYERS, choose_players, enter, state, tap

pytestmark = [
    pytest.mark.pico,
    pytest.mark.skipif(sys.platform != "linux", reason="pseudo-terminals and rp2040js as set up here"),
]


def scores(entries, players):
    out = [0] * players
    for track, points in entries:
        out[track] += points
    return out


@pytest.fixture
def pico(tmp_path):
    """A blank Pico (only MicroPython) that `cribboard flash` makes a 3-track board."""
    board = Pico(tmp_path / "flash.bin").start()
    done = cli("flash", "--port", board.port, "--layout", "3-track", timeout=300)
    assert done.returncode == 0, done.stderr
    board.ready()
    yield board
    board.stop()


def play(pico, entries, players):
    for k, (track, points) in enumerate(entries):
        enter(pico, track, points)
        events = state(pico)["events"] if k in (0, len(entries) - 1) else None
        if events is not None:  # the board counted what the presses meant
            assert [[e[0], e[1]] for e in events] == [list(e) for e in entries[: k + 1]]
    assert state(pico)["events"][-1][:2] == list(entries[-1])
    tap(pico, "OK")  # the won game is logged and the next one starts
    assert state(pico)["events"] == []


def test_a_two_player_and_a_three_player_game_to_121_by_gpio_presses_are_synced_once(pico, tmp_path):
    db = str(tmp_path / "games.db")
    play(pico, TWO_PLAYERS, 2)
    choose_players(pico, 3)
    assert state(pico)["settings"]["players"] == 3
    play(pico, THREE_PLAYERS, 3)
    first = cli("sync", "--port", pico.port, "--db", db, "--json", timeout=120)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["new_games"] == 2
    again = cli("sync", "--port", pico.port, "--db", db, "--json", timeout=120)
    assert again.returncode == 0
    assert json.loads(again.stdout)["new_games"] == 0
    exported = cli("export", "--db", db, "--format", "json")
    assert exported.returncode == 0, exported.stderr
    games = json.loads(exported.stdout)
    assert [(g["players"], g["scores"], g["winner"]) for g in games] == [
        (2, scores(TWO_PLAYERS, 2), "Track 1"),
        (3, scores(THREE_PLAYERS, 3), "Track 1"),
    ]
    for game, entries in zip(games, (TWO_PLAYERS, THREE_PLAYERS)):
        assert [tuple(e[:2]) for e in game["record"]["events"]] == entries
        assert game["board"] == state(pico)["board"]
        assert len(game["board"]) == 16
