# The club's server (`cribboard serve`): boards on the club's WiFi report
# their games and live scores to it, signed. protocol: what a request is
# and its one answer (no HTTP framework); allowance: what any one client
# may take; app: what is answered (reports, the live page, a health check);
# front: the ASGI edge, boards first; places: what a connection may hold;
# feeds: live pages pushed; server: uvicorn around it all.
