# The USB serial link to a board: finding its port, the link client, and sync from the board's log into the database.
