# A night on paper: the final standings and each player's scorecard as
# printable PDFs (A4, drawn with matplotlib, the `plot` extra), and both as
# CSV rows. A scorecard reads as an ACC card does: game by game, the
# opponent, won or lost, game points, spread, and the running totals.
import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cribboard.event.sources import BYE
from cribboard.night.standings import Standing
from cribboard.text.i18n import _

if TYPE_CHECKING:
    from cribboard.night.director import Night

_A4 = (8.27, 11.69)  # inches
_LINES = 40  # table rows on a page
_QUIET = 4  # a QR code's light border, in modules (the standard's)


def standings_csv(rows: Sequence[Standing]) -> str:
    out = io.StringIO()
    fields = ["rank", "player", "number", "card", "game_points", "wins", "spread", "games", "losses", "byes", "skunks"]
    w = csv.DictWriter(out, fields, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r.as_dict())
    return out.getvalue()


def cards_csv(night: "Night", rows: Sequence[Standing]) -> str:
    """A line a player and round."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "player",
            "number",
            "round",
            "table",
            "opponent",
            "won",
            "score",
            "against",
            "game_points",
            "spread",
            "total_points",
            "total_spread",
            "source",
        ]
    )
    for r in rows:
        for ln in r.lines:
            w.writerow(
                [
                    r.player,
                    r.number,
                    ln.round,
                    ln.table or "",
                    ln.opponent or "",
                    int(ln.won),
                    ln.score,
                    ln.against,
                    ln.game_points,
                    ln.spread,
                    ln.total_points,
                    ln.total_spread,
                    ln.source,
                ]
            )
    return out.getvalue()


def _signed(n: int) -> str:
    return "%+d" % n if n else "0"


def _pages(title: str, lines: list[str], columns: list[str], cells: list[list[str]], link: str | None = None) -> bytes:
    """A4 pages: a title, a few lines under it, then the table, _LINES rows a page; link, if given, as a QR
    code at the first page's foot (a phone's camera opens it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for start in range(0, max(1, len(cells)), _LINES):
            fig = plt.figure(figsize=_A4)
            fig.text(0.08, 0.95, title, fontsize=16, fontweight="bold", va="top")
            for k, line in enumerate(lines):
                fig.text(0.08, 0.915 - 0.022 * k, line, fontsize=11, va="top")
            top = 0.9 - 0.022 * len(lines)
            ax = fig.add_axes((0.08, 0.05, 0.84, top - 0.07))
            ax.axis("off")
            chunk = cells[start : start + _LINES] or [[""] * len(columns)]
            table = ax.table(cellText=chunk, colLabels=columns, loc="upper center", cellLoc="center")
            table.auto_set_font_size(False)
            table.set_fontsize(9)
            table.scale(1, 1.35)
            if link is not None and start == 0:
                _qr(fig, link)
            pdf.savefig(fig)
            plt.close(fig)
    return out.getvalue()


def _qr(fig: Any, link: str, right: float = 0.92, bottom: float = 0.03) -> None:
    """link as a QR code (segno: its modules one image pixel each, four modules of quiet zone), 1.3 inches
    square, its right edge and bottom at these fractions of the page (the card's: bottom right): a phone's
    camera reads it off paper."""
    import numpy
    import segno

    modules = numpy.array(segno.make(link, error="m").matrix, dtype=float)
    light = 1.0 - numpy.pad(modules, _QUIET, constant_values=0)
    side = 1.3  # inches
    ax = fig.add_axes((right - side / _A4[0], bottom, side / _A4[0], side / _A4[1]))
    ax.imshow(light, cmap="gray", vmin=0, vmax=1, interpolation="none")
    ax.axis("off")


def _heading(night: "Night") -> str:
    return _("Club night %(id)d: %(name)s") % {"id": night.id, "name": night.name}


def standings_pdf(night: "Night", rows: Sequence[Standing], paid: int) -> bytes:
    state = _("final") if night.over() else _("after round %d") % (min(night.in_play, night.rounds + 1) - 1)
    lines = [
        _("Standings, %s") % state,
        _("%(players)d players, %(rounds)d rounds; the top %(paid)d paid")
        % {"players": len(rows), "rounds": night.rounds, "paid": paid},
    ]
    cells = [
        [str(r.rank), r.player, r.card(), str(r.game_points), str(r.wins), _signed(r.spread), str(r.games), str(r.byes)]
        for r in rows
    ]
    columns = [_("rank"), _("player"), _("card"), _("game points"), _("wins"), _("spread"), _("games"), _("byes")]
    return _pages(_heading(night), lines, columns, cells)


def card_pdf(night: "Night", row: Standing, page: str | None = None, link: str | None = None) -> bytes:
    """page: where the player's own page is, with their code (page_line says it); link: its address, printed
    as a QR code too."""
    lines = [
        _("Scorecard: %s") % row.player,
        _("%(card)s, spread %(spread)s, place %(rank)d")
        % {"card": row.card(), "spread": _signed(row.spread), "rank": row.rank},
    ]
    if page is not None:
        lines.append(page)
    cells = [
        [
            str(ln.round),
            ln.table or "",
            ln.opponent or _("(bye)"),
            _("won") if ln.won else _("lost"),
            "%d-%d" % (ln.score, ln.against) if ln.opponent else "",
            str(ln.game_points),
            _signed(ln.spread),
            str(ln.total_points),
            _signed(ln.total_spread),
        ]
        for ln in row.lines
    ]
    columns = [
        _("round"),
        _("table"),
        _("opponent"),
        _("result"),
        _("score"),
        _("game points"),
        _("spread"),
        _("total points"),
        _("total spread"),
    ]
    return _pages(_heading(night), lines, columns, cells, link)


_SLIPS = (2, 5)  # a handout's slips a page: columns, rows


def handout_pdf(night: "Night", codes: dict[int, str], server: str | None) -> bytes:
    """Every player's code on a slip to cut out and hand over (their name, the code, where their page is,
    and its QR code when the server is known), ten to an A4 page, in the players' order."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.patches import Rectangle

    from cribboard.event.codes import shown

    players = [p for p in night.players if p in codes]
    columns, rows = _SLIPS
    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for start in range(0, max(len(players), 1), columns * rows):
            fig = plt.figure(figsize=_A4)
            for k, number in enumerate(players[start : start + columns * rows]):
                col, row = k % columns, k // columns
                left, top = 0.05 + col * 0.47, 0.97 - row * 0.19
                fig.add_artist(Rectangle((left - 0.01, top - 0.18), 0.46, 0.18, fill=False, ls=":", lw=0.6))
                fig.text(left, top - 0.02, night.label(number), fontsize=13, weight="bold", va="top")
                fig.text(
                    left,
                    top - 0.055,
                    _("Your code: %s") % shown(codes[number]),
                    fontsize=12,
                    va="top",
                    family="monospace",
                )
                link = page_link(codes[number], server)
                where = link if link is not None else _("/me on the club's server")
                fig.text(left, top - 0.09, _("Your page:"), fontsize=9, va="top")
                fig.text(left, top - 0.11, where, fontsize=7, va="top", wrap=True)
                if link is not None:
                    _qr(fig, link, right=left + 0.45, bottom=top - 0.175)
            fig.text(0.5, 0.01, _heading(night), ha="center", fontsize=8)
            pdf.savefig(fig)
            plt.close(fig)
    return out.getvalue()


def page_link(code: str, server: str | None) -> str | None:
    """The address of the player's own page with their code, when the club's server is known."""
    from cribboard.event.codes import shown

    if not server:
        return None
    return "%sme#%s" % (server if server.endswith("/") else server + "/", shown(code))


def page_line(code: str, server: str | None) -> str:
    """What a card says of the player's own page: its address with the code when the club's server is
    known, else the code and where on the server the page is."""
    from cribboard.event.codes import shown

    link = page_link(code, server)
    if link is not None:
        return _("Your page: %(link)s (your code: %(code)s)") % {"link": link, "code": shown(code)}
    return _("Your code: %s (your page: /me on the club's server)") % shown(code)


def file_name(position: int, row: Standing) -> str:
    """A scorecard's file name: its line in the standings (one a player, ties too) and the player's name,
    with only letters, digits and - _ in it."""
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in row.player)[:60]
    return "card-%03d-%s.pdf" % (position, safe)


def as_data(night: "Night", rows: Sequence[Standing]) -> dict[str, Any]:
    """The night as JSON: its settings, its standings, every player's card, and every result that counts with
    where it came from (a board's game, the director, or the players' phones: who entered it and who
    confirmed it)."""
    return {
        "night": night.id,
        "name": night.name,
        "seed": night.seed,
        "rounds": night.rounds,
        "scheme": night.scheme.__dict__,
        "tables": [
            {"table": t, "boards": [{"from_round": r, "board": b} for r, b in night.tables.changes.get(t, ())]}
            for t in night.tables.names
        ],
        "started_at": night.started_at,
        "ended_at": night.ended_at,
        "standings": [r.as_dict(lines=True) for r in rows],
        "results": results_rows(night),
    }


def results_rows(night: "Night") -> list[dict[str, Any]]:
    """Every result that counts, round by round in the tables' order, with where it came from: a board's game,
    the director, or the players' phones (who entered it and who confirmed it)."""
    order = {t: k for k, t in enumerate(night.tables.names)}
    return [
        {
            "round": r.round,
            "table": r.table,
            "players": [night.label(p) for p in r.players if p is not None],
            "scores": list(r.scores) if r.source != BYE else None,
            "winner": night.label(r.winner),
            "source": r.source,
            "entered_by": None if r.entered_by is None else night.label(r.entered_by),
            "confirmed_by": None if r.confirmed_by is None else night.label(r.confirmed_by),
            "game_id": r.game_id,
        }
        for r in sorted(night.counted(), key=lambda r: (r.round, order.get(r.table or "", len(order))))
    ]
