# Scoring hands at the computer: the show and pegging calculators, and the discard advisor's words.
