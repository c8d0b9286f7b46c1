# Results from the players' phones (issue 70): what two phones' words settle
# (cribboard.event.claims), how a night and a tournament's playoffs count
# them beside the boards' games and the director's entries, and the page's
# write on the club's real app (its guard, its refusals, a resend once).
import json

import asgi
import pytest
from clirun import cli
from hypothesis import given, settings
from hypothesis import strategies as st

from cribboard import store
from cribboard.event import claims, sources
from cribboard.event.claims import Claim, Word
from cribboard.event.games import BoardGame
from cribboard.event.refusals import Ended, NotAGame, NotInPlay, Settled, Unknown
from cribboard.event.tables import Tables
from cribboard.night import results
from cribboard.night.draw import Seating

ANN, BOB = 1, 2


def said(*words):
    """Claims of round 1 between Ann and Bob: (by, scores or None), in order."""
    return [Claim(k, 1, by, BOB if by == ANN else ANN, scores) for k, (by, scores) in enumerate(words, 1)]


def state(*words):
    settled = claims.settle(said(*words))
    assert len(settled) <= 1
    return next(iter(settled.values()), None)


def test_two_phones_that_claim_the_same_result_settle_it_entered_by_the_first():
    s = state((ANN, (121, 98)), (BOB, (98, 121)))
    assert s.state == claims.AGREED and (s.first.by, s.second.by) == (ANN, BOB)
    assert s.scores_of() == {ANN: 121, BOB: 98}


def test_one_claim_waits_and_a_refusal_or_another_result_is_a_dispute():
    assert state((ANN, (121, 98))).state == claims.WAITING
    assert state((ANN, (121, 98)), (BOB, None)).state == claims.REFUSED
    assert state((ANN, (121, 98)), (BOB, (121, 98))).state == claims.DISAGREE  # (each says they won)
    assert state((BOB, None)) is None, "a refusal of nothing is nothing"


def test_the_last_word_of_each_stands_so_players_can_mend_a_dispute_themselves():
    s = state((ANN, (121, 98)), (BOB, None), (ANN, (121, 99)))
    assert s.state == claims.WAITING and s.first.scores == (121, 99), "a new claim after a refusal waits again"
    s = state((ANN, (121, 98)), (BOB, (96, 121)), (ANN, (121, 96)))
    assert s.state == claims.AGREED and (s.first.by, s.second.by) == (BOB, ANN)
    assert state((ANN, (121, 98)), (BOB, (98, 121)), (ANN, (121, 90))).state == claims.DISAGREE


def test_a_claim_counts_only_between_the_two_it_names():
    other = Claim(9, 1, 3, ANN, (98, 121))  # player 3 claims against Ann: another pair, another game
    settled = claims.settle([*said((ANN, (121, 98))), other])
    assert {k[1] for k in settled} == {frozenset((ANN, BOB)), frozenset((3, ANN))}
    assert all(s.state == claims.WAITING for s in settled.values())


# One seat, round 1: Ann (deals first) against Bob at table "1", with a board ("b") or not; what happens to it,
# in any order: the players' phones' words, the director's entries, the board's game.
SCORES = st.sampled_from([(121, 98), (98, 121), (121, 60), (121, 120)])
EVENTS = st.lists(
    st.one_of(
        st.tuples(st.just("claim"), st.sampled_from([ANN, BOB]), SCORES),
        st.tuples(st.just("refuse"), st.sampled_from([ANN, BOB]), st.none()),
        st.tuples(st.just("director"), st.none(), SCORES),
        st.tuples(st.just("board"), st.none(), SCORES),
    ),
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(EVENTS, st.booleans())
def test_any_order_of_words_entries_and_a_boards_game_gives_the_result_the_rules_say(events, has_board):
    words, entries, games = [], [], []
    for kind, who, scores in events:
        if kind == "claim":
            words.append(Claim(len(words) + 1, 1, who, BOB if who == ANN else ANN, scores))
        elif kind == "refuse":
            words.append(Claim(len(words) + 1, 1, who, BOB if who == ANN else ANN, None))
        elif kind == "director":
            entries.append(results.Entry(1, (ANN, BOB), scores))
        elif kind == "board" and has_board and not games:
            games.append(BoardGame(50, "b", ("Ann", "Bob"), scores, 0 if scores[0] > scores[1] else 1, 121, 0))
    filed = results.file(
        [[Seating("1", ANN, BOB)]],
        games,
        entries,
        Tables.of(["1"], [("1", 1, "b" if has_board else None)]),
        {ANN: "Ann", BOB: "Bob"},
        words,
    )
    got = filed.results.get((1, frozenset((ANN, BOB))))
    # The model: each player's last word; the director's last entry stands over all; the phones agreeing stand
    # over the board; the board's game counts when neither is there.
    last = {}
    for c in words:
        last[c.by] = c
    agreed = (
        len(last) == 2
        and last[ANN].scores is not None
        and last[BOB].scores is not None
        and last[ANN].scores == last[BOB].scores[::-1]
    )
    if entries:
        want = (entries[-1].scores, sources.HAND)
    elif agreed:
        want = (last[ANN].scores, sources.PHONE)
    elif games:
        want = (games[0].scores, sources.BOARD)
    else:
        want = None
    assert (None if got is None else (got.scores, got.source)) == want
    if got is not None and got.source == sources.PHONE:
        first = min(last.values(), key=lambda c: c.id)
        assert (got.entered_by, got.confirmed_by) == (first.by, ANN + BOB - first.by)
    crosschecked = [f for f in filed.flags if f.reason == results.CROSSCHECK]
    assert bool(crosschecked) == (
        got is not None and bool(games) and got.source != sources.BOARD and got.scores != games[0].scores
    )
    open_claim = filed.claims.get((1, frozenset((ANN, BOB))))
    if got is not None:
        assert open_claim is None, "a seat whose result is in has no claim waiting"
    else:
        assert (open_claim is None) == all(c.scores is None for c in last.values())


def night(db_url, *extra):
    """A night of four at two tables without boards (Ann-Bob... as the draw seats them), and its codes."""
    done = cli("night", "new", "Ann", "Bob", "Cy", "Di", "--rounds", "3", "--seed", "7", "--db", db_url, *extra)
    assert done.returncode == 0, done.stderr
    return {r["player"]: r["code"] for r in json.loads(cli("night", "codes", "--db", db_url, "--json").stdout)}


def seats(db_url, number):
    """Round number's seats: {player: (table, opponent)}."""
    rows = json.loads(cli("night", "round", str(number), "--db", db_url, "--json").stdout)
    out = {}
    for r in rows:
        if r["second"] is not None:
            out[r["first"]] = (r["table"], r["second"])
            out[r["second"]] = (r["table"], r["first"])
    return out, rows


def test_a_night_counts_what_both_phones_of_a_seat_say_and_only_theirs(db_url):
    from cribboard.night import claims as night_claims
    from cribboard.night import director

    night(db_url)
    db = store.connect(db_url)
    try:
        n = director.load(db)
        seat = n.drawn[0][0]
        a, b = seat.first, seat.second
        other = n.drawn[0][1]
        c = other.first
        n = night_claims.claim(db, n, Word(a, (121, 100), "key-a-0001"))
        assert n.filed.claims[(1, frozenset((a, b)))].state == claims.WAITING
        with pytest.raises(NotInPlay, match="no result of your opponent's waiting"):
            night_claims.claim(db, n, Word(a, None, "key-a-0002"))  # (one's own claim is not for one to refuse)
        n = night_claims.claim(db, n, Word(c, (98, 121), "key-c-0001"))  # another table's player: their own seat
        assert (1, frozenset((a, b))) not in n.filed.results
        with pytest.raises(NotAGame):
            night_claims.claim(db, n, Word(b, (100, 100), "key-b-0001"))
        n = night_claims.claim(db, n, Word(b, (100, 121), "key-b-0002"))
        r = n.filed.results[(1, frozenset((a, b)))]
        assert (r.scores, r.winner, r.source, r.entered_by, r.confirmed_by) == ((121, 100), a, sources.PHONE, a, b)
        again = night_claims.claim(db, n, Word(b, (100, 121), "key-b-0002"))  # a resend: taken once, nothing refused
        assert len(again.claims) == len(n.claims) == 3
        with pytest.raises(Unknown, match="key was used"):
            night_claims.claim(db, n, Word(a, (121, 100), "key-b-0002"))
        with pytest.raises(Settled, match="confirmed by you both"):
            night_claims.claim(db, n, Word(a, (121, 90), "key-a-0003"))
        n = director.enter(db, n, 1, (a, b), (121, 90))  # the director's entry stands over the phones'
        assert n.filed.results[(1, frozenset((a, b)))].source == sources.HAND
        with pytest.raises(Settled, match="from the director"):
            night_claims.claim(db, n, Word(b, (90, 121), "key-b-0003"))
        n = night_claims.claim(db, n, Word(other.second, (98, 121), "key-d-0001"))
        assert [d.state for d in n.filed.disputes()] == [claims.DISAGREE]  # (each says the other won)
        assert n.in_play == 1
        n = director.enter(db, n, 1, (c, other.second), (121, 98))
        assert n.filed.disputes() == [] and n.in_play == 2
        n = night_claims.claim(db, n, Word(a, (121, 90), "key-a-0004"))  # (the round in play is the second now)
        assert [w.round for w in n.claims if w.by == a] == [1, 2]
        n = director.end(db, n, early=True)
        with pytest.raises(Ended):
            night_claims.claim(db, n, Word(a, (121, 90), "key-a-0005"))
    finally:
        db.close()


def test_the_players_page_takes_a_word_only_from_its_own_page_and_says_why_it_refuses(tmp_path, caplog):
    from cribboard.club.app import ClubApp
    from cribboard.club.front import Front
    from cribboard.club.protocol import Club
    from cribboard.seating import Seating as BoardsSeating

    db = str(tmp_path / "club.db")
    code = night(db)
    first, _rows = seats(db, 1)
    a = "Ann"
    table, b = first[a]
    now = [0.0]
    club = Club(db, BoardsSeating(), clock=lambda: now[0])
    app = ClubApp(club)
    app.served = ("0.0.0.0", 8120)
    front = Front(app, None, 2, 1)

    def post(body, peer="10.0.0.9", **headers):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {
            "host": "10.0.0.2:8120",
            "origin": "http://10.0.0.2:8120",
            "sec-fetch-site": "same-origin",
            "content-type": "application/json",
            "content-length": str(len(data)),
            **headers,
        }
        scope = {
            "type": "http",
            "method": "POST",
            "path": "/api/me/result",
            "query_string": b"",
            "headers": [(k.encode(), v.encode()) for k, v in sent.items()],
            "client": (peer, 50000),
        }
        status, _headers, answer = asgi.call(front, scope, data)
        return status, json.loads(answer)

    def page():
        """The night's page data as the app answers it (the front's second-long cache of it aside)."""
        from cribboard.web.http import Request

        now[0] += 2  # (the night is read again once a second at most)
        return app.answer(Request("GET", "/api/night", "", {"host": "10.0.0.2:8120"})).body

    word = {"code": code[a], "key": "k-ann-000001", "scores": [121, 101]}
    try:
        assert post(word, origin="http://evil.example")[0] == 403, "another site's page"
        assert "refused POST '/api/me/result' from 10.0.0.9: writes come from" in caplog.text  # logged, as a board's
        assert post(word, **{"sec-fetch-site": "cross-site"})[0] == 403
        assert post(word, **{"content-type": "text/plain"})[0] == 403, "a form's simple request"
        assert post(b"x" * 600)[0] == 413
        assert post(b"[1, 2]")[0] == 400 and post(b"{")[0] == 400
        for wrong in (
            {"key": "short"},
            {"scores": [121]},
            {"scores": [121, -1]},
            {"scores": [121, True]},
            {"target": 100},
            {"game": 0},
            {"code": 5},
        ):
            status, answer = post({**word, **wrong})
            assert status == 400, (wrong, answer)
        status, answer = post({**word, "code": "ZZZZZ-ZZZZZ"})
        assert status == 404 and "no player holds this code" in answer["error"]
        status, answer = post({**word, "scores": [121, 121]})
        assert (status, answer["kind"]) == (422, "not_a_game"), answer
        assert post(word) == (200, {"ok": True})
        assert post(word) == (200, {"ok": True}), "a resend (the phone back on the network) is taken once"
        row = next(g for g in page()["games"] if a in (g["first"], g["second"]))
        assert row["claim"]["state"] == "waiting" and row["claim"]["by"] == a and row["scores"] is None
        assert row["claim"]["scores"] == ([121, 101] if row["first"] == a else [101, 121])
        status, answer = post({"code": code[a], "key": "k-ann-000002", "scores": None})
        assert (status, answer["kind"]) == (409, "not_in_play")
        assert post({"code": code[b], "key": "k-bob-000001", "scores": [101, 121]}) == (200, {"ok": True})
        row = next(g for g in page()["games"] if a in (g["first"], g["second"]))
        assert row["claim"] is None and row["winner"] == a
        status, answer = post({"code": code[b], "key": "k-bob-000002", "scores": [101, 121]})
        assert (status, answer["kind"]) == (409, "in") and "confirmed by you both" in answer["error"]
        conn = store.connect(db)
        try:
            assert conn.value("SELECT COUNT(*) FROM result_claims") == 2
        finally:
            conn.close()
        history = json.loads(cli("night", "history", "--db", db, "--json").stdout)
        assert [(h["by"], h["source"], h["first_score"], h["second_score"]) for h in history] == [
            (a, "phone", 121, 101),
            (b, "phone", 101, 121),
        ]
        exported = json.loads(cli("night", "export", "--format", "json", "--db", db).stdout)
        (result,) = [r for r in exported["results"] if a in r["players"]]
        assert (result["source"], result["entered_by"], result["confirmed_by"], result["table"]) == (
            "phone",
            a,
            b,
            table,
        )
    finally:
        club.close()


def test_a_playoff_match_counts_the_games_its_phones_agree_on_the_directors_standing_over_them():
    from cribboard.tournament.playoffs import HandGame, play

    names = {1: "Ann", 2: "Bob"}
    tables = [("1", None)]

    def word(k, by, number, scores):
        return Claim(k, 1, by, 3 - by, scores, 121, 0, number)

    words = [
        word(1, 2, 1, (121, 90)),  # game 1: Bob (seed 2) won, Ann confirms
        word(2, 1, 1, (90, 121)),
        word(3, 1, 2, (121, 100)),  # game 2: Ann claims a win, Bob says he won: a dispute
        word(4, 2, 2, (121, 100)),
    ]
    (final,) = play([1, 2], 3, 3, tables, names, [], [], words).round(1)
    assert [(g.number, g.scores, g.source, g.entered_by, g.confirmed_by) for g in final.games] == [
        (1, (90, 121), sources.PHONE, 2, 1)
    ]
    assert final.claim is not None and final.claim.state == claims.DISAGREE and final.claim.first.number == 2
    settled = HandGame(1, 0, 2, (121, 100))  # the director settles game 2: Ann's
    (final,) = play([1, 2], 3, 3, tables, names, [], [settled], words).round(1)
    assert [(g.number, g.source) for g in final.games] == [(1, sources.PHONE), (2, sources.HAND)]
    assert final.claim is None and final.wins == (1, 1)
    fix = HandGame(1, 0, 1, (121, 60), replaces=True)  # and fixes game 1, which the phones had
    (final,) = play([1, 2], 3, 3, tables, names, [], [settled, fix], words).round(1)
    assert [(g.scores, g.source) for g in final.games] == [((121, 60), sources.HAND), ((121, 100), sources.HAND)]
    assert final.winner == 1


def test_a_tournaments_players_enter_their_qualifying_and_playoff_games_from_their_phones(db_url):
    from cribboard.night import director as nights
    from cribboard.tournament import claims as tournament_claims
    from cribboard.tournament import director

    players = ["P%d" % k for k in range(8)]
    done = cli("tournament", "new", *players, "--games", "2", "--seed", "3", "--db", db_url)
    assert done.returncode == 0, done.stderr
    db = store.connect(db_url)
    key = iter("key-%06d" % k for k in range(1000))
    try:
        t = director.load(db)
        codes_held = {
            r["player"]: r["code"] for r in json.loads(cli("night", "codes", "--db", db_url, "--json").stdout)
        }
        assert len(codes_held) == 8
        for number in (1, 2):  # every qualifying game from the phones: the lower number wins, 121 to 100
            for g in t.night.drawn[number - 1]:
                win, lose = sorted((g.first, g.second))
                tournament_claims.claim(db, t.night.id, Word(lose, (100, 121), next(key)))
                tournament_claims.claim(db, t.night.id, Word(win, (121, 100), next(key)))
            t = director.load(db)
        assert t.qualifying_in()
        assert {r.source for r in t.night.filed.results.values()} == {sources.PHONE}
        c = t.the_cut()  # (players equal at the line: the first of them go through)
        t = director.make_cut(db, t, [t.standings()[i].player for i in c.tied][: c.open_places()])
        (match,) = [m for m in director.playoffs_of(t).round(1) if not m.pairing.bye]
        high, low = match.players
        with pytest.raises(NotInPlay, match="no match to play"):
            tournament_claims.claim(db, t.night.id, Word(t.night.players[-1], (121, 0), next(key)))
        tournament_claims.claim(db, t.night.id, Word(high, (121, 80), next(key), 1))
        tournament_claims.claim(db, t.night.id, Word(low, (80, 121), next(key), 1))
        with pytest.raises(Settled, match="game 1 of your match is in already"):
            tournament_claims.claim(db, t.night.id, Word(low, (80, 121), next(key), 1))
        tournament_claims.claim(db, t.night.id, Word(high, (121, 90), next(key), 2))
        tournament_claims.claim(db, t.night.id, Word(low, None, next(key), 2))  # refused
        t = director.load(db)
        (flag,) = director.flag_rows(t)
        assert (flag["reason"], flag["round"], flag["match"], flag["game"]) == (
            claims.REFUSED,
            1,
            match.pairing.slot + 1,
            None,
        )
        assert flag["said"] == "%s 121-90; %s \u2717" % (t.night.label(high), t.night.label(low))
        t, _slot = director.enter(db, t, (t.night.label(low), t.night.label(high)), (121, 110))  # the director's word
        assert director.flag_rows(t) == []
        (row,) = [r for r in director.bracket_rows(t) if not r["bye"] and r["round"] == 1]
        assert [(g["scores"], g["source"], g["entered_by"], g["confirmed_by"]) for g in row["games"]] == [
            ([121, 80], sources.PHONE, t.night.label(high), t.night.label(low)),
            ([110, 121], sources.HAND, None, None),
        ]
        assert row["claim"] is None and row["wins"] == [1, 1]
        assert nights.load(db, t.night.id).over(), "the qualifying ended with the cut"
    finally:
        db.close()
