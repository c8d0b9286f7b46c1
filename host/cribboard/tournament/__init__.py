# A sanctioned tournament (the American Cribbage Congress's format):
# qualifying games drawn so no pair meets more than the format allows, the
# cut to one entrant in four, the bracket with its byes, and best-of-N
# playoff matches.
