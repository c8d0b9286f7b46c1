# The boards' local web page: its HTTP server, the guard on every request, the
# page and its API, and what a board shows on it.
