# The club's server (`cribboard serve`): boards on the club's WiFi report
# their games and live scores to it, signed. protocol: what a request is
# and its one answer (no HTTP framework); allowance: what any one client
# may take; app: the WSGI edge (reports, the live page, a health check);
# server: waitress around it, with its bounds.
