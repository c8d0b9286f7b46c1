# A tournament from the director's commands, on both database engines: 24
# entrants (two of one name) qualify over 6 games, two each against many, on
# the club's boards; the cut takes 6 to a bracket of 8 with 2 byes; the
# best-of-3 matches are played on the boards at their tables (one game
# entered by hand), and the seeds, the bracket, the champion and every
# place equal a count made here from the games themselves.
import json
import random

from test_night import Boards, as_json, at, ok, refused

TABLES = ["b0ard-%02d" % i for i in range(12)]


class ClubBoards(Boards):
    def __init__(self, db_url):
        super().__init__(db_url)
        self.seq = dict.fromkeys(TABLES, 0)


def test_a_tournament_from_qualifying_through_the_cut_to_its_places(db_url):
    rng = random.Random(58)
    boards = ClubBoards(db_url)
    for b in TABLES:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)  # (boards the database knows)
    db = ["--db", db_url]
    names = {n: "Entrant %02d" % n for n in range(1, 25)}
    names[24] = names[23] = "Sam Lee"
    done = ok(
        "tournament",
        "new",
        *names.values(),
        "--games",
        "6",
        "--format",
        "two",
        *at(*TABLES),
        "--seed",
        "7",
        "--best-of",
        "3",
        "--final",
        "3",
        *db,
    )
    assert "6 will qualify" in done.stderr
    count = {n: [0, 0, 0] for n in names}  # game points, games won, spread
    met = {}
    for number in range(1, 7):
        for g in as_json("night", "round", str(number), *db):
            first, second = g["numbers"]
            met[frozenset((first, second))] = met.get(frozenset((first, second)), 0) + 1
            winner = rng.randrange(2)
            loser_score = rng.choice([50, 70, 95, 100, 110, 119, 120])
            boards.play(g["board"], [names[first], names[second]], winner, loser_score)
            won, lost = (first, second) if winner == 0 else (second, first)
            count[won][0] += 2 if loser_score >= 91 else 3
            count[won][1] += 1
            count[won][2] += 121 - loser_score
            count[lost][2] -= 121 - loser_score
    assert max(met.values()) <= 2  # no one plays another more than twice
    assert as_json("night", "flags", *db) == []
    standings = as_json("tournament", "standings", *db)
    assert {r["number"]: [r["game_points"], r["wins"], r["spread"]] for r in standings} == count
    order = sorted(names, key=lambda n: (-count[n][0], -count[n][1], -count[n][2]))
    key = {n: tuple(count[n]) for n in names}
    line = key[order[5]]
    sure = [n for n in order if key[n] > line]
    level = [n for n in order if key[n] == line]
    cut_said = {r["number"]: r["cut"] for r in standings}
    assert {n for n, c in cut_said.items() if c == "through"} == (
        set(sure) if len(sure) + len(level) > 6 else set(order[:6])
    )
    take = []
    if len(sure) + len(level) > 6:
        said = refused("tournament", "cut", *db)
        places = 6 - len(sure)
        assert "equal at the cut line for %d %s:" % (places, "place" if places == 1 else "places") in said, said
        take = level[:places]
        said = refused("tournament", "cut", "--take", "#%d" % order[-1], *db)  # the last is not at the line
        assert "is not equal at the cut line (those who are: " in said, said
    ok("tournament", "cut", *[x for n in take for x in ("--take", "#%d" % n)], *db)
    seeds = [n for n in order if n in sure] + [n for n in level if n in take] if take else order[:6]
    assert "made already" in refused("tournament", "cut", *db)

    first_round = as_json("tournament", "bracket", "--round", "1", *db)
    assert [r["seeds"] for r in first_round] == [[1, None], [4, 5], [3, 6], [2, None]]  # the chart of 8: 2 byes
    assert [r["numbers"][0] for r in first_round] == [seeds[0], seeds[3], seeds[2], seeds[1]]
    # The playoffs on the boards, best of 3: the higher seed on track 1; one game of round 1 by hand.
    winners = {}
    by_hand = False
    for number in (1, 2, 3):
        for r in as_json("tournament", "bracket", "--round", str(number), *db):
            if r["bye"]:
                winners[(number, r["match"])] = r["numbers"][0]
                continue
            high, low = r["numbers"]
            wins = [0, 0]
            while max(wins) < 2:
                w = rng.randrange(2)
                if not by_hand:
                    scores = [121, 121]
                    scores[1 - w] = 100
                    ok("tournament", "result", "#%d" % high, str(scores[0]), "#%d" % low, str(scores[1]), *db)
                    by_hand = True
                else:
                    boards.play(r["board"], [names[high], names[low]], w, 100)
                wins[w] += 1
            winners[(number, r["match"])] = high if wins[0] == 2 else low
            shown = next(
                x for x in as_json("tournament", "bracket", "--round", str(number), *db) if x["match"] == r["match"]
            )
            assert shown["wins"] == wins
    champion = winners[(3, 1)]
    places = {r["number"]: r["place"] for r in as_json("tournament", "places", *db)}
    assert places[champion] == 1
    final = next(r for r in as_json("tournament", "bracket", "--round", "3", *db))
    assert places[next(p for p in final["numbers"] if p != champion)] == 2
    semis = as_json("tournament", "bracket", "--round", "2", *db)
    for r in semis:
        loser = next(p for p in r["numbers"] if p != winners[(2, r["match"])])
        assert places[loser] == 3
    for r in first_round:
        if not r["bye"]:
            loser = next(p for p in r["numbers"] if p != winners[(1, r["match"])])
            assert places[loser] == 5
    rest = [n for n in order if n not in seeds]
    assert [places[n] for n in rest] == sorted(places[n] for n in rest)
    assert min(places[n] for n in rest) == 7
    assert as_json("tournament", "list", *db)[0]["format"] == "two"


def test_a_tournament_that_cannot_be_begun_or_cut_says_why(db_url):
    db = ["--db", db_url]
    assert "even count" in refused("tournament", "new", *["P%d" % i for i in range(8)], "--games", "5", *db)
    assert "odd count" in refused(
        "tournament", "new", *["P%d" % i for i in range(8)], "--games", "4", "--best-of", "2", *db
    )
    ok("tournament", "new", *["P%d" % i for i in range(8)], "--games", "4", "--seed", "1", *db)
    said = refused("tournament", "cut", *db)
    assert "the qualifying has 16 games not in (round 1, tables 1, 2, 3, 4; round 2, tables 1, 2, 3, 4; round 3" in said
    assert "4 entrants are too few for a playoff" in refused("tournament", "new", "A", "B", "C", "D", *db)
    assert "the cut is not made yet" in refused("tournament", "result", "P1", "121", "P2", "90", *db)


def test_a_tournament_too_small_for_a_playoff_makes_no_database(tmp_path):
    path = tmp_path / "new.db"
    assert "4 entrants are too few" in refused("tournament", "new", "A", "B", "C", "D", "--db", str(path))
    assert not path.exists()


def test_a_player_who_withdrew_is_out_of_the_cut_and_a_withdrawal_leaving_too_few_is_refused(db_url):
    """Eight entrants, two qualify. P1 and P3 lead after two games and leave: the cut passes them over and
    takes the next two still in, their rows marked as withdrawn; a withdrawal that would leave one player is
    refused, saying so, and nothing is redrawn."""
    db = ["--db", db_url]
    ok("tournament", "new", *["P%d" % i for i in range(1, 9)], "--games", "4", "--seed", "3", *db)

    def play(number):
        for g in as_json("night", "round", str(number), *db):
            if g["second"]:
                first, second = g["numbers"]
                scores = ("121", "100") if first < second else ("100", "121")  # the lower number wins
                ok("night", "result", str(number), g["first"], scores[0], g["second"], scores[1], *db)

    play(1)
    play(2)
    leaders = [r["player"] for r in as_json("tournament", "standings", *db)[:2]]
    assert "leave 1 player: too few for a playoff" in refused("night", "leave", *["P%d" % i for i in range(1, 8)], *db)
    assert len({p for g in as_json("night", "round", "3", *db) for p in (g["first"], g["second"]) if p}) == 8
    ok("night", "leave", *leaders, *db)
    play(3)
    play(4)
    rows = as_json("tournament", "standings", *db)
    marks = {r["player"]: r["cut"] for r in rows}
    assert [marks[p] for p in leaders] == ["withdrew", "withdrew"]
    still_in = [r for r in rows if r["player"] not in leaders]
    assert [r["cut"] for r in still_in[:2]] == ["through", "through"] or still_in[1]["cut"] == "at the line"
    if still_in[1]["cut"] == "at the line":
        ok("tournament", "cut", "--take", still_in[1]["player"], *db)
    else:
        ok("tournament", "cut", *db)
    seeded = {p for m in as_json("tournament", "bracket", *db) for p in m["players"] if p}
    assert seeded == {still_in[0]["player"], still_in[1]["player"]}


def test_a_playoff_game_by_hand_is_one_more_or_a_fix_and_undoes(db_url, tmp_path):
    """Eight entrants, two qualify: the final at once. A game entered by hand is a game more; the board's
    games number on after it; one entered with --game fixes that game; undo takes the last back."""
    boards = ClubBoards(db_url)
    for b in TABLES[:4]:
        boards.play(b, ["Player 1", "Player 2"], 0, 100)
    db = ["--db", db_url]
    names = ["P%d" % i for i in range(1, 9)]
    ok("tournament", "new", *names, "--games", "2", "--final", "3", *at(*TABLES[:4]), "--seed", "3", *db)
    for number in (1, 2):
        for g in as_json("night", "round", str(number), *db):
            first, second = g["numbers"]
            winner = min(first, second)  # the lower number wins, by more the lower it is: no one level
            boards.play(g["board"], [names[first - 1], names[second - 1]], 0 if winner == first else 1, 90 + 5 * winner)
    ok("tournament", "cut", *db)
    (final,) = as_json("tournament", "bracket", *db)
    hi, lo = final["players"]
    assert hi == "P1"
    ok("tournament", "result", lo, "121", hi, "90", *db)  # game 1: by hand, the board never had it
    boards.play(final["board"], [hi, lo], 0, 110)  # the board's first: game 2
    (final,) = as_json("tournament", "bracket", *db)
    assert [(g["game"], g["scores"], g["source"]) for g in final["games"]] == [
        (1, [90, 121], "hand"),
        (2, [121, 110], "board"),
    ]
    ok("tournament", "result", hi, "121", lo, "60", "--game", "1", *db)  # game 1 was P1's after all
    (final,) = as_json("tournament", "bracket", *db)
    assert (final["wins"], final["winner"]) == ([2, 0], "P1")
    assert "is over" in refused("tournament", "result", hi, "121", lo, "60", *db)
    places = as_json("tournament", "places", *db)
    assert [(r["player"], r["place"]) for r in places[:2]] == [(hi, 1), (lo, 2)]
    boards.play(final["board"], [lo, hi], 1, 100)  # the board played on: a game after the match was won
    (flag,) = as_json("tournament", "flags", *db)
    assert (flag["reason"], flag["round"], flag["match"], flag["names"]) == ("after_the_match", 1, 1, [lo, hi])
    ok("tournament", "undo", *db)  # the fix taken back: 1-1, and the board's last game is game 3
    (final,) = as_json("tournament", "bracket", *db)
    assert (final["wins"], final["winner"]) == ([2, 1], hi)
    assert as_json("tournament", "flags", *db) == []
    assert "is over" in refused("tournament", "result", hi, "121", lo, "1", *db)
    places = as_json("tournament", "places", *db)
    assert [r["place"] for r in places[2:]] == sorted(r["place"] for r in places[2:])
    standings = as_json("tournament", "standings", *db)
    exported = ok("tournament", "export", *db).stdout.splitlines()  # the places as CSV
    assert exported[0] == "place,player,number,seed,qualifying_rank,card,spread"
    assert [line.split(",")[1] for line in exported[1:]] == [r["player"] for r in places]
    data = json.loads(ok("tournament", "export", "--format", "json", *db).stdout)
    assert (data["format"], data["places"], len(data["qualifying"])) == ("two", places, 8)
    ok("tournament", "print", str(tmp_path / "paper"), *db)
    printed = sorted(p.name for p in (tmp_path / "paper").iterdir())
    assert printed == [
        "bracket.pdf",
        *["card-%03d-%s.pdf" % (k, r["player"]) for k, r in enumerate(standings, 1)],
        "codes.pdf",
        "standings.pdf",
    ]
    ended = as_json("tournament", "end", *db)  # the places final; nothing more changes
    assert [r["player"] for r in ended] == [r["player"] for r in places]
    assert "has ended" in refused("tournament", "result", hi, "121", lo, "100", "--game", "1", *db)
    assert "has ended" in refused("tournament", "undo", *db)
    assert as_json("tournament", "list", *db)[0]["ended_at"] is not None


def test_a_board_on_usb_is_told_its_playoff_match_and_its_games_win_it(tmp_path, db_url):
    """The final at a board on USB: `tournament send` seats the pair and the match's length (best of 3), and
    is refused while a game begun before it has points on the board; two games won on its buttons, synced,
    win the match and the tournament."""
    from simboard import Board

    from cribboard.sim.simulator import board_ident

    board = Board(tmp_path / "flash")
    db = ["--db", db_url]
    try:
        ok("sync", "--port", board.port, *db)  # the database knows the board from its first sync
        ident = board_ident(tmp_path / "flash")
        names = ["P%d" % i for i in range(1, 9)]
        tables = ["--table", "1=%s" % ident[:8], "--table", "2", "--table", "3", "--table", "4"]
        ok("tournament", "new", *names, "--games", "2", "--final", "3", *tables, "--seed", "5", *db)
        assert "at no table with a playoff match on" in refused("tournament", "send", "--port", board.port, *db)
        for number in (1, 2):  # the qualifying's scorecards, entered by hand: the lower number wins
            for g in as_json("night", "round", str(number), *db):
                first, second = g["numbers"]
                winner = min(first, second)
                scores = ("121", str(90 + winner)) if winner == first else (str(90 + winner), "121")
                ok("night", "result", str(number), g["first"], scores[0], g["second"], scores[1], *db)
        ok("tournament", "cut", *db)
        (final,) = as_json("tournament", "bracket", *db)
        assert (final["table"], final["board"]) == ("1", ident)
        board.enter("P1", 5)  # a game begun before the seat (its own players, 5-0): the board keeps it
        kept = refused("tournament", "send", "--port", board.port, *db)
        assert "kept its match under way" in kept and "game 1 at 5-0" in kept and "new match" in kept, kept
        board.press("UNDO")  # its one entry undone: nothing of it is lost, the seat is taken
        told = ok("tournament", "send", "--port", board.port, *db)
        assert "%s against %s, best of 3" % tuple(final["players"]) in told.stderr
        for _game in range(2):  # track 1 (the higher seed) to 121 twice on the buttons
            for _ in range(4):
                board.enter("P1", 29)
            board.enter("P1", 5)
            board.press("OK")
        ok("sync", "--port", board.port, *db)
    finally:
        board.stop()
    (final,) = as_json("tournament", "bracket", *db)
    assert (final["wins"], final["winner"]) == ([2, 0], final["players"][0])
    assert [g["source"] for g in final["games"]] == ["board", "board"]
    first = as_json("tournament", "places", *db)[0]
    assert (first["place"], first["player"], first["number"], first["seed"]) == (
        1,
        final["players"][0],
        final["numbers"][0],
        1,
    )


def test_a_late_entrant_and_a_withdrawal_are_drawn_a_pairing_at_a_time(db_url):
    """Two games each against many: a late entrant joins and an entrant withdraws after the first pairing;
    the pairings not begun are drawn again, each still two games in a row at one table with first deal
    swapped, and no one meets anyone more than twice."""
    db = ["--db", db_url]
    names = ["E%d" % n for n in range(1, 9)]
    ok("tournament", "new", *names, "--games", "6", "--seed", "11", *db)
    for g in as_json("night", "round", "1", *db):
        ok("night", "result", "1", g["first"], "121", g["second"], "100", *db)
    assert "pairing's second game" in refused("night", "join", "Late", "--from", "2", *db)
    ok("night", "join", "Late", *db)  # from round 3: round 2 is the first pairing's second game
    ok("night", "leave", "E3", *db)
    rounds = [as_json("night", "round", str(n), *db) for n in range(1, 7)]
    met = {}
    for first_game, second_game in zip(rounds[::2], rounds[1::2]):
        pairs = {(g["table"], g["first"], g["second"]) for g in first_game if g["second"]}
        assert pairs == {(g["table"], g["second"], g["first"]) for g in second_game if g["second"]}
        for g in first_game + second_game:
            if g["second"]:
                key = frozenset((g["first"], g["second"]))
                met[key] = met.get(key, 0) + 1
    assert max(met.values()) == 2
    later = [p for r in rounds[2:] for g in r for p in (g["first"], g["second"]) if p]
    assert "Late" in later
    assert "E3" not in later


def test_a_tournament_scores_the_accs_way_unless_its_scheme_is_given(db_url):
    """A club's own scheme for its nights is not a tournament's: a tournament scores 2 a win and 3 a skunk
    unless the director gives its parts."""
    db = ["--db", db_url]
    ok("night", "scheme", "--win", "1", "--skunk", "1", "--double-skunk", "1", *db)  # the club's nights
    names = ["P%d" % n for n in range(1, 9)]
    for parts, win in (((), 2), (("--win", "5", "--skunk", "6", "--double-skunk", "6"), 5)):
        ok("tournament", "new", *names, "--games", "2", "--seed", "1", *parts, *db)
        for number in (1, 2):
            for g in as_json("night", "round", str(number), *db):
                first, second = g["numbers"]
                scores = ("121", "100") if first < second else ("100", "121")  # the lower number wins
                ok("night", "result", str(number), g["first"], scores[0], g["second"], scores[1], *db)
        standings = as_json("tournament", "standings", *db)
        assert sorted({r["game_points"] for r in standings}) == [0, 2 * win]  # both games of a pairing
        assert json.loads(ok("tournament", "export", "--format", "json", *db).stdout)["scheme"]["win"] == win


def test_a_tournament_ended_with_its_qualifying_not_in_is_refused_and_an_end_is_undone_until_the_next_event(db_url):
    db = ["--db", db_url]
    names = ["Entrant %d" % n for n in range(1, 9)]
    ok("tournament", "new", *names, "--games", "2", *db)
    said = refused("tournament", "end", *db)
    assert "the qualifying of tournament 1 has 8 games not in (round 1, tables 1, 2, 3, 4; round 2, tables" in said
    assert "--early" in said, said
    ok("tournament", "end", "--early", *db)
    assert "tournament 1 is open again" in ok("tournament", "reopen", *db).stderr
    assert "8 games not in" in refused("tournament", "end", *db), "its qualifying is open again"
    assert as_json("tournament", "list", *db)[0]["ended_at"] is None
    ok("tournament", "end", "--early", *db)
    ok("night", "new", "Ann", "Bob", *db)
    said = refused("tournament", "reopen", *db)
    assert "night 2 has begun since: tournament 1 can no longer be reopened" in said, said
