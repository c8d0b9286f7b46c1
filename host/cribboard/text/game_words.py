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
