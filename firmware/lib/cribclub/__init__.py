# A board's reports to its club's server over WiFi (docs/protocol.md, "The
# club's server"): loaded only on a board that has a network and has been
# given a club (cribboard wifi, cribboard pair); other boards never read it.


def start(app, files, wlan, sockets):
    """The app's sender (cribclub.sender), from the settings the board was
    given; None if they do not read (the board then plays on without)."""
    import json

    from cribapp.hostapi import HostApi
    from cribapp.store import CLUB, WIFI
    from cribclub.sender import Sender

    kept = []
    for name in (WIFI, CLUB):
        f = files.open(name, "rb")
        try:
            kept.append(json.loads(f.read()))
        except ValueError:
            return None
        finally:
            f.close()
    try:
        return Sender(HostApi(app), wlan, sockets, app.clock, kept[0], kept[1])
    except (KeyError, TypeError, ValueError):
        return None
