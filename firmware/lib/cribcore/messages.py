# The English of every CoreError (cribcore's and the board files' checks,
# cribcore.layoutfile, .config and cribapp.hostapi), by code. The raising modules
# hold only the code, as a hidden const: a board keeps no sentence on its
# heap, and loads this table only to say one (CoreError.__str__). The host's
# catalogue takes its message ids from here (tools/catalogues.py), and
# cribboard.text.error_words translates them with their values. Placeholders are named,
# so a translation may put them in any order; a CoreError's values come in
# the order the names first appear. Codes are grouped by module, a hundred
# each, and never reused: a newer board's code still reads as a number.
MESSAGES = {
    # cards
    101: "no card has rank %(rank)r and suit %(suit)r",
    102: "unknown card %(given)r (write rank then suit: 5H, TD, 10D, QS, 5♥)",
    103: "duplicate card %(card)s",
    104: "not a card: %(given)r",
    # game
    201: "cribbage is for 2, 3 or 4 players, not %(given)r",
    202: "a game goes to 121 or 61, not %(given)r",
    203: "no seat %(seat)r at a table of %(players)d",
    204: "unknown kind of score %(given)r",
    205: "the game is over: side %(side)d has won",
    206: "passing the deal scores nothing, not %(given)r",
    207: "an entry is 1 to %(most)d points, not %(given)r",
    208: "no hand shows %(points)d points",
    209: "his heels is 2 points for the dealer",
    210: "the crib belongs to the dealer",
    211: "ticks must be a whole number >= 0, not %(given)r",
    212: "load into a new game only",
    213: "cursor %(cursor)r is outside the %(events)d events",
    214: "bad event %(given)r",
    # match
    301: "unknown scheme %(given)r (acc, long, free, free_triple)",
    302: "unknown skunk class %(given)r",
    303: "a match is either best of N games or first to N points, not both",
    304: "a match length is 1 to 99, not %(given)r",
    305: "game %(game)d has not started",
    306: "game %(game)d is not held in memory",
    307: "the current game is not over",
    308: "the match is over",
    # record, replay
    401: "the match no longer holds its earlier games",
    451: "record version %(given)r is not supported (this core reads %(version)d)",
    452: "a piquet record with %(field)s %(given)r",
    453: "not a cribbage or piquet record: %(given)r",
    454: "game %(game)d: bad event %(given)r",
    455: "game %(game)d: stored result %(given)r does not match its events",
    456: "record has no %(field)r",
    457: "record field %(field)r has a bad value %(given)r",
    458: "record holds no game",
    459: "game %(game)d: seat %(given)r dealt first, but the loser (seat %(loser)d) deals",
    460: "stored match winner %(given)r does not match the games",
    # names
    501: "%(tracks)d names are needed, one a track",
    502: "name %(number)d: %(problem)s",
    503: "a name is text",
    504: "a name cannot be empty",
    505: "%(length)d characters is too long: at most %(most)d",
    506: "no spaces at either end",
    507: "no control characters (U+%(code)04X)",
    # barbu
    601: "give %(contract)s as four counts, one per player",
    602: "%(contract)s adds up to %(total)d; it must be %(want)d",
    603: "give %(field)r as a seat, 0 to 3",
    604: "the ace of hearts is a heart: its taker took at least one",
    605: "give 'order' as the four seats, first out to last",
    606: "unknown contract %(given)r (%(contracts)s)",
    607: "%(contract)s scores %(total)d in all, not %(want)d",
    608: "the doubles are a list of [doubler, doubled, redoubled], not %(given)r",
    609: "a double is [doubler, doubled, redoubled], not %(given)r",
    610: "a double is between two different players, not %(given)r",
    611: "redoubled is true or false, not %(given)r",
    612: "%(dealer)s deals: the dealer doubles no one (he may redouble a player who doubled him)",
    613: "%(first)s and %(second)s have two bets on one deal: one double between two players, redoubled or not",
    614: "the first dealer is a seat, 0 to 3",
    615: "the rubber is over: 28 deals",
    616: "%(dealer)s, the dealer, has already played %(contract)s in this round",
    617: "the deal's scores add up to %(total)d, not %(want)d",
    618: "not a barbu record (version 1)",
    619: "a barbu record has a list of deals",
    620: "deal %(deal)d: not a deal (contract, result, doubles)",
    621: "deal %(deal)d: %(error)s",
    622: "player %(number)d",
    # pegging
    701: "no card has been laid",
    702: "the count would be %(count)d: it may not pass 31",
    703: "the play needs 2, 3 or 4 hands, not %(given)d",
    704: "the play is over",
    705: "seat %(seat)d does not hold %(card)s",
    706: "%(card)s would take the count past 31",
    # discard, show
    801: "%(players)d players are dealt %(dealt)d cards: give %(dealt)d, not %(given)d",
    851: "a hand has 4 cards, not %(given)d",
    852: "not a card in %(hand)r + %(starter)r",
    853: "a card appears twice in the hand and starter",
    854: "no hand shows %(given)r points (possible: 0..29 except 19, 25, 26, 27)",
    # partie
    901: "piquet is for two players: the dealer is 0 or 1",
    902: "piquet is for two players: seat 0 or 1, not %(given)r",
    903: "a piquet entry is points or the end of a deal, not %(given)r",
    904: "the partie is over",
    905: "ending a deal scores nothing",
    906: "a piquet entry is 1 to %(most)d points, not %(given)r",
    907: "a piquet match is one partie",
    908: "a piquet match is one partie: start a new one",
    # piquet
    1001: "%(who)s holds %(count)d cards; a piquet hand is 12",
    1002: "%(card)s is not in a piquet deck (7 to ace)",
    1003: "elder holds %(card)s, which was dealt to younger: the exchange takes cards from the talon",
    1004: "younger holds %(card)s, which was dealt to elder: the exchange takes cards from the talon",
    1005: "elder exchanges 1 to 5 cards; his hand shows %(count)d he was not dealt",
    1006: "give the winner (0 elder, 1 younger) of each of the 12 tricks",
    1007: "dealt is the two hands as dealt: elder's, then younger's",
    # cribcore.layoutfile
    1101: "a layout is a JSON object",
    1102: "layout %(layout)s: 'tracks' must be 2 or 3, not %(given)r",
    1103: "layout %(layout)s: 'leds' must be the strip length, not %(given)r",
    1104: "layout %(layout)s: 'runs' must be a list",
    1105: "layout %(layout)s: runs place more than the %(leds)d LEDs of the strip",
    1106: "layout %(layout)s: track %(track)d %(part)s is on two LEDs (%(first)d and %(second)d)",
    1107: "layout %(layout)s: 'leds' says %(leds)d but the runs place %(placed)d",
    1108: "layout %(layout)s: track %(track)d %(part)s has no LED",
    1109: "layout %(layout)s: track %(track)d has no dealer LED",
    1110: "layout %(layout)s: track %(track)d game point %(point)d has no LED",
    1111: "run %(run)d is not an object",
    1112: "run %(run)d: 'track' must be 0..%(last)d, not %(given)r",
    1113: "run %(run)d: unknown kind %(given)r (holes, game, dealer, points)",
    1114: "run %(run)d: 'from' and 'to' must be 1..%(top)d, not %(first)r..%(last)r",
    1115: "the reference board has 2 or 3 tracks, not %(given)r",
    1116: "dealer LED",
    1117: "game point %(point)d",
    1118: "game hole",
    1119: "hole %(hole)d",
    # cribcore.config
    1201: "the board config is a JSON object",
    1202: "the board config needs 'buttons': {name: pin}",
    1203: "unknown button %(given)r (buttons are %(buttons)s)",
    1204: "pin %(pin)s is given to two things (%(first)s and %(second)s)",
    1205: "the board config has no pin for button %(button)s",
    1206: "%(field)r must be a pin: a GPIO number from 0 to 99 or a board pin name such as D5, not %(given)r",
    1207: "%(field)r must be a whole number from %(low)d to %(high)d, not %(given)r",
    1208: "the LED strip",
    # cribapp.hostapi (CONF)
    1301: "%(field)s is %(low)d to %(high)d characters",
    1302: "only the wifi or the club settings are kept, as a JSON object",
    1303: "the server is http://ADDRESS:PORT/ with an IPv4 address, and the key lowercase hex",
    1304: "no record %(seq)d yet (last is %(last)d)",
    1305: "a WiFi password is 8 to 63 printable ASCII characters, or 64 hex digits, or none for an open network",
    1306: "a WiFi network's name is 1 to 32 bytes, with no control characters",
}


def names(template: str) -> list[str]:
    """The placeholders' names, each once, in the order they first appear."""
    out = []  # type: list[str]
    i = template.find("%(")
    while i >= 0:
        end = template.find(")", i)
        name = template[i + 2 : end]
        if name not in out:
            out.append(name)
        i = template.find("%(", end)
    return out


def fill(template: str, values: tuple | list) -> str:
    """The template with its values, given in the order of names()."""
    return template % dict(zip(names(template), values))


def english(code: int, values: tuple | list) -> str:
    """The English sentence of a CoreError; a code this core does not know
    (a newer board's) is shown as it is."""
    template = MESSAGES.get(code)
    if template is None or len(values) != len(names(template)):
        return "core error %r %r" % (code, values)
    return fill(template, values)
