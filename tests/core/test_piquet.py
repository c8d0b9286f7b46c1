# Rubicon piquet: declarations, repique and pique, the play, the partie.
from cribrules.cards import parse
from cribrules.piquet import ELDER, YOUNGER, point_of, rubicon, score_deal, sequences_of, sets_of

from check import raises

ELDER_REPIQUE = parse("7S 8S 9S TS JS QS KS AS AH AD AC 7H")
YOUNGER_POOR = parse("8H 9H TH JH QH KH 7D 8D 9D TD JD QD")
ELDER_PIQUE = parse("7S 8S 9S TS JS QS KS AH AD AC 7H 8H")
YOUNGER_PIQUE = parse("AS KH QH JH TH 9H KD QD KC QC JC JD")


def test_sequences_score_3_4_then_15_to_18():
    assert sorted([n for n, _ in sequences_of(parse("7S 8S 9S TH JH QH KH"))]) == [3, 4]
    younger = parse("7H 8H TH JH KH AH 7C 8C TC JC KC AC")  # no sequence of three anywhere
    quint = parse("7S 8S 9S TS JS KS AS 7D 9D JD KD AD")
    assert score_deal(quint, younger, [ELDER] * 12).sequences == [15, 0]
    tierce_and_quint = parse("7S 8S 9S JS KS 7D 8D 9D TD JD KD AD")  # 7-9 spades, 7-J diamonds
    assert score_deal(tierce_and_quint, younger, [ELDER] * 12).sequences == [3 + 15, 0]
    sixieme = parse("7S 8S 9S TS JS QS AS 7D 9D JD KD AD")
    assert score_deal(sixieme, younger, [ELDER] * 12).sequences == [16, 0]


def test_point_is_the_longest_suit_and_pips_break_a_tie():
    assert point_of(parse("AS KS 7S 8H 9H TH")) == (3, 28)
    e = parse("AS KS QS JS 7H 8H 9H 7D 8D 9D 7C 8C")
    y = parse("TS 9S 8S 7S AH KH QH TD JD QD AC KC")
    d = score_deal(e, y, [ELDER] * 12)
    assert d.point == [4, 0]  # 4 spades each: 41 pips beat 34


def test_sets_ten_or_higher_best_set_takes_all():
    assert sets_of(parse("AS AH AD KS KH KD 9S 9H 9D")) == [(3, 6), (3, 7)]
    d = score_deal(ELDER_PIQUE, YOUNGER_PIQUE, [ELDER] * 12)
    assert d.sets == [3, 0]  # elder's aces beat younger's kings, queens and jacks


def test_carte_blanche():
    e = parse("7S 8S 9S TS AS 7H 8H 9H 7D 8D 9D 7C")
    y = parse("JS QS KS TH JH QH KH AH TD JD QD KD")
    assert score_deal(e, y, [YOUNGER] * 12).blanche == [10, 0]


def test_repique_and_capot():
    d = score_deal(ELDER_REPIQUE, YOUNGER_POOR, [ELDER] * 12)
    assert (d.point, d.sequences, d.sets) == ([8, 0], [18, 0], [14, 0])
    assert d.repique == [60, 0]
    assert d.pique == [0, 0]
    assert (d.lead, d.tricks, d.cards) == ([1, 0], [12, 0], [40, 0])
    assert d.scores == [8 + 18 + 14 + 60 + 1 + 12 + 40, 0]


def test_pique_in_the_play_and_the_cards():
    winners = [ELDER] * 8 + [YOUNGER] * 4
    d = score_deal(ELDER_PIQUE, YOUNGER_PIQUE, winners)
    assert (d.point, d.sequences, d.sets) == ([7, 0], [17, 0], [3, 0])
    assert d.repique == [0, 0]
    assert d.pique == [30, 0]
    assert d.tricks == [8, 5]  # younger's first trick was led by elder: 2
    assert d.cards == [10, 0]
    assert d.scores == [27 + 1 + 8 + 30 + 10, 5]


def test_bad_deals_are_refused():
    assert "12" in raises(ValueError, score_deal, ELDER_PIQUE[:11], YOUNGER_PIQUE, [0] * 12)
    assert "piquet deck" in raises(ValueError, score_deal, parse("2S") + ELDER_PIQUE[1:], YOUNGER_PIQUE, [0] * 12)
    raises(ValueError, score_deal, ELDER_PIQUE, ELDER_PIQUE, [0] * 12)
    raises(ValueError, score_deal, ELDER_PIQUE, YOUNGER_PIQUE, [0] * 11)


def test_rubicon_results():
    assert rubicon([150, 120]) == (0, 130)
    assert rubicon([80, 163]) == (1, 100 + 80 + 163)  # rubiconed
    assert rubicon([90, 90]) is None


def test_partie_six_deals_elder_alternating_two_more_on_a_tie():
    from cribrules.piquet import PiquetGame

    p = PiquetGame(dealer=1)  # player 0 is elder in the first deal
    for k in range(6):
        assert p.dealer() == 1 - k % 2
        assert not p.over()
        p.add(0, 20)
        p.add(1, 20)
        p.pass_deal()
    assert not p.over()
    assert p.deal_number() == 7
    p.add(0, 30)
    p.add(1, 10)
    p.pass_deal()
    p.add(0, 5)
    p.add(1, 5)
    p.pass_deal()
    assert p.over()
    assert [p.score(0), p.score(1)] == [155, 135]
    assert p.rubicon() == (0, 120)
    raises(ValueError, p.add, 1, 1)
    q = PiquetGame(dealer=1)
    for _ in range(6):
        q.add(0, 10)
        q.add(1, 25)
        q.pass_deal()
    assert q.over()
    assert q.rubicon() == (1, 100 + 60 + 150)
    raises(ValueError, PiquetGame(dealer=1).add, 0, -1)
    raises(ValueError, PiquetGame(dealer=1).add, 0, 251)  # 250 a deal at most: one home for the limit


def test_the_partie_as_a_ledger_with_undo():
    from cribcore.record import game_record
    from cribrules.piquet import PiquetGame, PiquetMatch

    g = PiquetGame(dealer=1)
    g.add(0, 153)  # a repique and capot: far past 29
    assert g.score(0) == 153
    assert g.dealer() == 1
    assert g.deal_number() == 1
    raises(ValueError, g.add, 0, 251)
    raises(ValueError, g.add, 2, 5)
    for _ in range(5):
        g.pass_deal()
        g.add(1, 20)
    assert not g.over()
    assert g.deal_number() == 6
    assert g.dealer() == 0
    g.pass_deal()  # the sixth deal ends it: 153 to 100
    assert g.over()
    assert g.winner() == 0
    assert g.rubicon() == (0, 100 + 53)
    raises(ValueError, g.add, 1, 3)
    g.undo()
    assert not g.over()
    g.add(1, 53)
    g.pass_deal()  # 153 all: two more deals
    assert not g.over()
    assert g.deal_number() == 7
    g.add(1, 1)
    g.pass_deal()
    g.pass_deal()
    assert g.winner() == 1
    assert g.rubicon() == (1, 101)
    m = PiquetMatch(dealer=0)
    m.game.add(1, 40)
    for _ in range(6):
        m.game.pass_deal()
    rec = game_record(m, 0)
    assert rec["game"] == "piquet"
    assert (rec["winner"], rec["points"], rec["scores"]) == (1, 140, [0, 40])
    assert m.over()
    assert m.winner() == 1
    assert m.next_dealer() == 1
    raises(ValueError, m.next_game)


def test_carte_blanche_is_judged_on_the_cards_dealt_not_on_the_hand_after_the_exchange():
    dealt = parse("AS TS 9S 8S 7S AH TH 9H 8H 7H AD AC")  # not a face card: blanche (seed 002)
    held = parse("AS TS 9S 8S KS AH TH 9H 8H 7H AD AC")  # the exchange brought the king of spades
    younger = parse("KH QH JH QS JS KD QD JD KC QC JC 9C")
    with_dealt = score_deal(held, younger, [YOUNGER] * 12, (dealt, younger))
    # blanche 10, point 5, quart and tierce 7, quatorze of aces 14: 36 before younger scores: repique
    assert with_dealt.blanche == [10, 0]
    assert with_dealt.repique == [60, 0]
    held_only = score_deal(held, younger, [YOUNGER] * 12)
    assert held_only.blanche == [0, 0]
    assert held_only.repique == [0, 0]
    assert with_dealt.scores[0] == held_only.scores[0] + 10 + 60
    too_many = parse("AS TS 9S 8S KS AC 7S TD 9D 8D 7D TC")  # six of the held cards not dealt
    assert "elder exchanges 1 to 5 cards" in raises(
        ValueError, score_deal, held, younger, [YOUNGER] * 12, (too_many, None)
    )


# A deal and its exchange (seed 002): the talon is the 8 cards not dealt;
# elder takes 1 to 5 of them, younger none up to every card elder left.
DEALT_ELDER = parse("AS KS QS JS TS AH KH QH JH TH AD KD")
DEALT_YOUNGER = parse("9S 8S 7S 9H 8H 7H QD JD TD 9D 8D 7D")
TALON = parse("AC KC QC JC TC 9C 8C 7C")


def exchanged(hand, out, taken):
    return [c for c in hand if c not in out] + list(taken)


def test_younger_may_take_every_card_elder_left_in_the_talon():
    for elder_took in (4, 3, 2, 1):
        for younger_took in (4, 5):
            if elder_took + younger_took > 8:
                continue
            e_held = exchanged(DEALT_ELDER, DEALT_ELDER[-elder_took:], TALON[:elder_took])
            y_held = exchanged(
                DEALT_YOUNGER, DEALT_YOUNGER[:younger_took], TALON[elder_took : elder_took + younger_took]
            )
            d = score_deal(e_held, y_held, [ELDER] * 12, (DEALT_ELDER, DEALT_YOUNGER))
            assert d.scores[ELDER] > 0, (elder_took, younger_took)
    # younger took none: his hand as dealt
    e_held = exchanged(DEALT_ELDER, DEALT_ELDER[-3:], TALON[:3])
    score_deal(e_held, DEALT_YOUNGER, [YOUNGER] * 12, (DEALT_ELDER, DEALT_YOUNGER))


def test_the_exchange_refuses_only_what_the_seed_forbids():
    took = [YOUNGER] * 12
    e5 = exchanged(DEALT_ELDER, DEALT_ELDER[-5:], TALON[:5])
    y4 = exchanged(DEALT_YOUNGER, DEALT_YOUNGER[:4], TALON[4:8])  # 5 + 4 > 8: one card twice (check_hands)
    raises(ValueError, score_deal, e5, y4, took, (DEALT_ELDER, DEALT_YOUNGER))
    y3 = exchanged(DEALT_YOUNGER, DEALT_YOUNGER[:3], TALON[5:8])
    score_deal(e5, y3, took, (DEALT_ELDER, DEALT_YOUNGER))  # the talon whole: 5 and 3
    said = raises(ValueError, score_deal, DEALT_ELDER, y3, took, (DEALT_ELDER, DEALT_YOUNGER))
    assert "elder exchanges 1 to 5 cards" in said
    assert "shows 0" in said
    # a card of the other's hand is not in the talon
    stolen = exchanged(DEALT_ELDER, DEALT_ELDER[-1:], DEALT_YOUNGER[:1])
    y_rest = exchanged(DEALT_YOUNGER, DEALT_YOUNGER[:1], TALON[:1])
    assert "which was dealt to younger" in raises(
        ValueError, score_deal, stolen, y_rest, took, (DEALT_ELDER, DEALT_YOUNGER)
    )
    # elder 2, younger 6: the whole talon, allowed; a 9th card for younger can only be one elder took
    y6 = exchanged(DEALT_YOUNGER, DEALT_YOUNGER[:6], TALON[2:8])
    e2 = exchanged(DEALT_ELDER, DEALT_ELDER[-2:], TALON[:2])
    score_deal(e2, y6, took, (DEALT_ELDER, DEALT_YOUNGER))
    y7 = exchanged(DEALT_YOUNGER, DEALT_YOUNGER[:7], TALON[1:8])
    assert "duplicate" in raises(ValueError, score_deal, e2, y7, took, (DEALT_ELDER, DEALT_YOUNGER))


def test_a_blanche_is_made_or_spoilt_by_a_large_exchange():
    blank = parse("AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD")  # dealt without a face card
    faces = parse("KS QS JS KH QH JH KD QD JD 9D 8D 7D")
    talon = parse("AC KC QC JC TC 9C 8C 7C")
    # elder took one card; younger took five: elder's blanche stands, dealt without a face card
    e_held = exchanged(blank, blank[-1:], talon[:1])
    y_held = exchanged(faces, faces[:5], talon[1:6])
    d = score_deal(e_held, y_held, [ELDER] * 12, (blank, faces))
    assert d.blanche == [10, 0]
    # younger dealt the blank hand: his blanche stands however many cards he changed (five, from the faces)
    f_held = exchanged(faces, faces[-1:], talon[:1])
    b_held = exchanged(blank, blank[:5], talon[1:6])
    d = score_deal(f_held, b_held, [ELDER] * 12, (faces, blank))
    assert d.blanche == [0, 10]
    # the held hands alone: the king of clubs drawn spoils what looks like one
    assert score_deal(f_held, b_held, [ELDER] * 12).blanche == [0, 0]
