# The words of the games that the sheets show and the rules' errors say:
# barbu's contracts and piquet's two hands, marked for translation. Apart,
# so that what says an error (cribboard.text.error_words) and the sheets that raise
# one need not import each other.
from cribboard.text.i18n import N_

# The contracts as the table names them: the code's English words (always
# understood), and each language's own (the Spanish rules': barbú,
# corazones, damas, bazas, dos últimas, triunfo, dominó), shown and read.
CONTRACT_NAMES = {
    "barbu": N_("barbu"),
    "hearts": N_("hearts"),
    "queens": N_("queens"),
    "tricks": N_("tricks"),
    "last2": N_("last2"),
    "trumps": N_("trumps"),
    "domino": N_("domino"),
}

WHO = ("elder", "younger")  # piquet's hands, as the core names them
WHO_WORDS = (N_("elder"), N_("younger"))

# A playoff round's name by the players left in it: one rule for the printed
# bracket (tournament.printouts, translated there) and the projector's page
# (sent untranslated by tournament.view, translated by the page in its
# viewer's language). ROUND_OF takes the players left.
FINAL = N_("Final")
SEMI_FINALS = N_("Semi-finals")
QUARTER_FINALS = N_("Quarter-finals")
ROUND_OF = N_("Round of %s")
ROUND_NAMES = (FINAL, SEMI_FINALS, QUARTER_FINALS, ROUND_OF)


def round_name(left: int) -> str:
    """The round's name (a message, untranslated): ROUND_OF for a round named by its players left."""
    return {2: FINAL, 4: SEMI_FINALS, 8: QUARTER_FINALS}.get(left, ROUND_OF)
