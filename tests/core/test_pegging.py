# The play: points for each card laid, and whole hands through the engine.
from cribrules.cards import parse
from cribrules.pegging import GO, LAST, PLAY, Play, count_of, play_out, score_lay

from check import Lcg, raises


def lay(text):
    return score_lay(parse(text))


def test_fifteen_and_thirty_one():
    assert lay("7C 8D").fifteen == 2
    assert lay("7C 8D").total == 2
    s = lay("KC QD JH AS")
    assert (s.thirty_one, s.total) == (2, 2)
    assert lay("KC QD").total == 0


def test_pairs_pair_royal_double_pair_royal():
    assert lay("4C 4D").pairs == 2
    assert lay("4C 4D 4H").pairs == 6
    assert lay("3C 3D 3H 3S").pairs == 12
    assert lay("4C 4D 9H 4S").pairs == 0  # pairs need the cards in a row
    assert lay("5C 5D 5H").total == 8  # a pair royal making 15


def test_runs_in_any_order_and_broken_by_a_repeat():
    assert lay("9C 6D 8H 7S").run == 4  # the worked example
    assert lay("8C 7D 7H 6S").run == 0
    assert lay("3C 5D 4H").run == 3
    assert lay("3C 5D 4H 6S").run == 4
    assert lay("3C 5D 4H 3S").run == 3
    assert lay("AC 2D 4H 3S 5C").total == 5 + 2  # run of 5 making 15
    assert lay("QC KD AH").run == 0


def test_the_count_may_not_pass_31():
    assert "31" in raises(ValueError, lay, "KC QD JH 2S")
    raises(ValueError, score_lay, [])
    raises(ValueError, score_lay, [3, 3])


def test_two_players_last_card_and_pair():
    events = play_out([parse("TH 5S"), parse("5H AS")], dealer=1)
    assert [(e[0], e[1], e[2]) for e in events] == [(1, 2, PLAY), (0, 2, PLAY), (1, 1, LAST)]


def test_two_players_go_then_reset_and_the_other_leads():
    p = Play([parse("KH QH 9C"), parse("KD QD 2C")], dealer=1)
    assert p.turn == 0
    p.lay(parse("KH")[0])
    assert p.lay(parse("KD")[0]) == [(1, 2, PLAY, score_lay(parse("KH KD")))]
    ev = p.lay(parse("QH")[0])  # 30: seat 1 cannot lay, seat 0 neither
    assert [(e[0], e[1], e[2]) for e in ev] == [(0, 1, GO)]
    assert p.count == 0
    assert p.turn == 1
    p.lay(parse("QD")[0])
    p.lay(parse("9C")[0])
    ev = p.lay(parse("2C")[0])
    assert [(e[0], e[1], e[2]) for e in ev] == [(1, 1, LAST)]
    assert p.done


def test_thirty_one_scores_two_and_no_last_card():
    events = play_out([parse("KH AC"), parse("KD KS")], dealer=1)
    assert [(e[0], e[1], e[2]) for e in events] == [(1, 2, PLAY), (1, 2, PLAY)]


def test_must_play_if_able_and_only_own_cards():
    p = Play([parse("KH 5C"), parse("KD QD")], dealer=1)
    assert "does not hold" in raises(ValueError, p.lay, parse("KD")[0])
    p.lay(parse("KH")[0])
    p.lay(parse("KD")[0])
    # Seat 0 holds 5C and must lay it (25): the turn stays in order.
    assert p.turn == 0
    assert p.playable() == parse("5C")
    p.lay(parse("5C")[0])
    # Seat 1 cannot lay QD (35); seat 0 has nothing: go to seat 0.
    assert p.events[-1][:3] == (0, 1, GO)
    assert p.turn == 1


def test_go_passes_around_three_players():
    # Seat 1 leads (dealer 0). After 25 only seat 0 can still lay.
    p = Play([parse("3C 9C"), parse("KH 8C"), parse("QS 7D")], dealer=0)
    p.lay(parse("KH")[0])  # 10
    p.lay(parse("QS")[0])  # 20
    p.lay(parse("3C")[0])  # 23
    p.lay(parse("8C")[0])  # 31 by seat 1: 2 points, reset; seat 2 leads
    assert p.events[-1][:3] == (1, 2, PLAY)
    assert p.count == 0
    assert p.turn == 2
    p.lay(parse("7D")[0])
    p.lay(parse("9C")[0])  # 16; seat 1 has nothing left
    assert p.done
    assert p.events[-1][:3] == (0, 1, LAST)


def test_runs_never_span_a_reset():
    p = Play([parse("KH 8C 9D"), parse("KD 4S TS")], dealer=1)
    for c in ("KH", "KD", "8C"):  # 28: nobody can go on
        p.lay(parse(c)[0])
    assert p.events[-1][:3] == (0, 1, GO)
    assert p.turn == 1
    p.lay(parse("TS")[0])
    assert p.lay(parse("9D")[0]) == []  # 8, then 10 9 after the reset: no run
    ev = p.lay(parse("4S")[0])
    assert [(e[0], e[1], e[2]) for e in ev] == [(1, 1, LAST)]


def test_four_players_turn_order_and_every_card_laid():
    rng = Lcg(44)
    for deal in range(30):
        cards = rng.sample(range(52), 16)
        hands = [cards[0:4], cards[4:8], cards[8:12], cards[12:16]]
        p = Play(hands, dealer=deal % 4)
        laid = 0
        while not p.done:
            options = p.playable()
            assert options, "the turn went to a seat that cannot play"
            p.lay(options[rng.below(len(options))])
            laid += 1
            assert count_of(p.series) == p.count <= 31
        assert laid == 16
        # Every series ends in a 31 or a go; the last card scores unless it made 31.
        last = p.events[-1]
        assert last[2] == LAST or (last[2] == PLAY and last[3].thirty_one), last


def test_engine_is_refused_bad_tables():
    raises(ValueError, Play, [parse("KH")], 0)
    raises(ValueError, Play, [parse("KH"), parse("KH")], 0)
    raises(ValueError, Play, [parse("KH"), parse("QH")], 2)
