# What the database tells: listings and statistics, league standings, a game's chart, the files written for the user.
