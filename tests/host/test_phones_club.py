# Every table reports, board or not (`make test-club`, issue 70): 24 entrants
# in a tournament at 12 tables, 6 with simulated Pico Ws on the club's WiFi
# and 6 of wood, against a real `cribboard serve` on PostgreSQL; every player
# has their page open on a phone (chromium, a phone's screen, in es, it, de
# and en). A qualifying of 3 rounds: the boards' games played on their
# buttons, the wooden tables' entered on one phone and confirmed on the
# other; one pair disagrees (the director settles it), one phone is off the
# network while its game is entered. Then the cut and the first playoff
# round at the wooden tables, each game of each match from the phones. The
# standings and the bracket equal a count made here.
import json
import random

import clubserver
import pytest
from clirun import cli
from clubtables import counted, paired_boards, started, stored_games
from deadline import COMMAND_S
from playwright.sync_api import sync_playwright
from test_browser import CHROMIUM_FLAGS, chromium_path
from test_browser_me import phone, text_is
from test_night_club import play, wait_for
from test_tournament_club import ask

from cribboard import store

ENTRANTS = ["%s %s" % (a, b) for a in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo") for b in ("Ames", "Bell", "Cole", "Dunn")]
ROUNDS = 3
WOOD = ["W%d" % k for k in range(1, 7)]  # first: the playoffs' first matches are seated at the first tables
LOCALES = ("es-ES", "it-IT", "de-DE", "en-GB")
ROUND_WORD = {"es": "Ronda %d de %d", "it": "Turno %d di %d", "de": "Runde %d von %d", "en": "Round %d of %d"}


def bracket_match(db_url, match):
    """The first playoff round's match as `tournament bracket` gives it."""
    return next(m for m in ask(db_url, "tournament", "bracket", "--round", "1") if m["match"] == match)


def enter(page, won, loser_score):
    page.wait_for_selector("#entry", state="visible")
    page.click("#iWon" if won else "#theyWon")
    page.fill("#loser", str(loser_score))
    page.click("#send")


def confirm(page):
    page.wait_for_selector("#confirm", state="visible")
    page.click("#confirm")


@pytest.mark.club
def test_a_tournament_at_boards_and_wooden_tables_takes_every_result_from_boards_and_phones(tmp_path, pg_cluster):
    db_url = pg_cluster.new_database()
    store.connect(db_url).close()
    proc, url = clubserver.start(db_url)
    boards = []
    rng = random.Random(70)
    results = []  # every game as counted here: (names by track, scores, winning track)
    try:
        by_ident = paired_boards(tmp_path, db_url, url, 6, boards)
        tables = [x for t in WOOD for x in ("--table", t)]
        tables += [x for k, ident in enumerate(by_ident, 1) for x in ("--table", "B%d=%s" % (k, ident))]
        ask(
            db_url,
            "tournament",
            "new",
            *ENTRANTS,
            "--format",
            "one-alternating",
            "--games",
            str(ROUNDS),
            *tables,
            "--best-of",
            "3",
            "--final",
            "3",
            "--seed",
            "70",
        )
        codes = {r["player"]: r["code"] for r in ask(db_url, "tournament", "codes")}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            try:
                pages, lang = {}, {}
                for k, player in enumerate(ENTRANTS):
                    pages[player], _context = phone(browser, LOCALES[k % 4])
                    lang[player] = LOCALES[k % 4][:2]
                    pages[player].goto(url + "me#" + codes[player], wait_until="load")
                    text_is(pages[player], "#who", player)
                for number in range(1, ROUNDS + 1):
                    for player in ENTRANTS:  # every phone moved on to the round by itself
                        text_is(pages[player], "#round", ROUND_WORD[lang[player]] % (number, ROUNDS))
                    games = [g for g in ask(db_url, "night", "round", str(number)) if g["second"]]
                    at_boards = [g for g in games if g["board"]]
                    assert sorted(g["board"] for g in at_boards) == sorted(by_ident)
                    plans = [(g, rng.randrange(2), rng.choice([60, 85, 95, 110, 119])) for g in games]
                    join = started(
                        [
                            lambda g=g, w=w, s=s: play(by_ident[g["board"]], (g["first"], g["second"]), w, s)
                            for g, w, s in plans
                            if g["board"]
                        ],
                        COMMAND_S * 4,
                    )
                    for k, (g, w, s) in enumerate(p for p in plans if not p[0]["board"]):
                        names = [g["first"], g["second"]]
                        scores = [121, s] if w == 0 else [s, 121]
                        enterer, other = (names[0], names[1]) if k % 2 == 0 else (names[1], names[0])
                        won = names[w] == enterer
                        if number == 3 and k == 0:  # a phone off the network while it is entered
                            pages[enterer].context.set_offline(True)
                            enter(pages[enterer], won, s)
                            pages[enterer].wait_for_function("document.getElementById('pending').textContent !== ''")
                            pages[enterer].context.set_offline(False)
                        else:
                            enter(pages[enterer], won, s)
                        if number == 2 and k == 0:  # the other says they won: the director settles it
                            pages[other].wait_for_selector("#wrong", state="visible")
                            pages[other].click("#wrong")
                            enter(pages[other], won, s)
                        else:
                            confirm(pages[other])
                        results.append((names, scores, w))
                    if number == 2:
                        wait_for(
                            lambda: any(f["reason"] == "disagree" for f in ask(db_url, "night", "flags")),
                            COMMAND_S,
                            lambda: "no dispute flagged: %s" % cli("night", "flags", "--db", db_url).stdout,
                        )
                        (flag,) = ask(db_url, "night", "flags")
                        g, w, s = next(p for p in plans if not p[0]["board"])
                        loser, winner = (g["second"], g["first"]) if w == 0 else (g["first"], g["second"])
                        settled = cli("night", "result", "2", winner, "121", loser, str(s), "--db", db_url)
                        assert settled.returncode == 0, settled.stderr
                        assert flag["table"] == g["table"] and ask(db_url, "night", "flags") == []
                    join()
                    wait_for(
                        lambda number=number: all(g["winner"] for g in ask(db_url, "night", "round", str(number))),
                        COMMAND_S,
                        lambda: "round not all in: %s" % cli("night", "flags", "--db", db_url).stdout,
                    )
                results += [(names, scores, w) for names, scores, w in stored_games(db_url)]
                mine = counted(results, ENTRANTS)
                standings = ask(db_url, "tournament", "standings")
                assert {r["player"]: [r["game_points"], r["wins"], r["spread"]] for r in standings} == mine
                exported = json.loads(cli("tournament", "export", "--format", "json", "--db", db_url).stdout)
                sources = [r["source"] for r in exported["qualifying_results"]]
                assert sources.count("board") == 6 * ROUNDS and sources.count("hand") == 1
                assert sources.count("phone") == 6 * ROUNDS - 1
                assert all(
                    r["entered_by"] and r["confirmed_by"]
                    for r in exported["qualifying_results"]
                    if r["source"] == "phone"
                )
                order = sorted(ENTRANTS, key=lambda p: (-mine[p][0], -mine[p][1], -mine[p][2], p))
                line = mine[order[5]]
                sure = [p for p in order if mine[p] > line]
                level = [p for p in order if mine[p] == line]
                take = level[: 6 - len(sure)] if len(sure) + len(level) > 6 else []
                seeds = sure + take if take else order[:6]
                cut = cli("tournament", "cut", *[x for p in take for x in ("--take", p)], "--db", db_url)
                assert cut.returncode == 0, cut.stderr
                first_round = [m for m in ask(db_url, "tournament", "bracket", "--round", "1") if not m["bye"]]
                assert [(m["seeds"], m["table"]) for m in first_round] == [([4, 5], "W1"), ([3, 6], "W2")]
                assert [m["players"][0] for m in first_round] == [seeds[3], seeds[2]]
                won_by = {}
                for m in first_round:  # each game of each match from the phones, the lower seed's phone entering
                    high, low = m["players"]
                    wins = [0, 0]
                    while max(wins) < 2:
                        w = rng.randrange(2)
                        wins[w] += 1
                        s = rng.choice([70, 100, 115])
                        enter(pages[low], w == 1, s)
                        confirm(pages[high])
                        wait_for(
                            lambda m=m, n=wins[0] + wins[1]: len(bracket_match(db_url, m["match"])["games"]) == n,
                            COMMAND_S,
                            lambda m=m: "game not in: %s" % bracket_match(db_url, m["match"]),
                        )
                        if max(wins) < 2:  # (each page shows the match as it stands, its own wins first)
                            text_is(pages[low], "#score", "%d - %d" % (wins[1], wins[0]))
                    won_by[m["match"]] = m["players"][0 if wins[0] == 2 else 1]
                wait_for(
                    lambda: all(m["winner"] for m in ask(db_url, "tournament", "bracket", "--round", "1")),
                    COMMAND_S,
                    lambda: cli("tournament", "bracket", "--db", db_url).stdout,
                )
            finally:
                browser.close()
        shown = {m["match"]: m for m in ask(db_url, "tournament", "bracket", "--round", "1")}
        for match, winner in won_by.items():
            assert shown[match]["winner"] == winner
            assert {g["source"] for g in shown[match]["games"]} == {"phone"}
            assert all(g["entered_by"] == shown[match]["players"][1] for g in shown[match]["games"])
        (second_round,) = [m for m in ask(db_url, "tournament", "bracket", "--round", "2") if m["match"] == 1]
        assert second_round["players"] == [seeds[0], won_by[2]]  # the bye met the winner of 4 v 5
    finally:
        for b in boards:
            b.stop()
        clubserver.stop(proc)
