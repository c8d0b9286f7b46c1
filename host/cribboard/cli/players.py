# Players: names for a board's tracks, and who played which game.

import click

from cribboard.cli.base import cli
from cribboard.cli.localized import TranslatedGroup
from cribboard.cli.options import ROW_ID, db_option, json_option, open_db, open_link, port_option, read_db
from cribboard.cli.output import emit, status
from cribboard.errors import UsageError
from cribboard.records import MAX_INT
from cribboard.text.i18n import _, ngettext


class _SendByDefault(TranslatedGroup):
    """`cribboard players NAME NAME` sends the names to the board: a first
    word that is no subcommand means `players send`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["send", *args]
        return super().parse_args(ctx, args)


@cli.group(cls=_SendByDefault)
def players():
    """The players: names for a board's tracks, and who played which game.

    `cribboard players --port PORT NAME NAME [NAME]` gives the board its
    players' names (a team's name for four players), one a track; the board
    keeps them for every game until changed."""


@players.command("send")
@port_option
@click.argument("names", nargs=-1, required=True)
def players_send(port: str | None, names: tuple[str, ...]) -> None:
    """Give the board its players' names, one a track."""
    from cribboard.cli.player_names import checked

    given = [checked(n) for n in names]
    link = open_link(port)
    try:
        link.set_names(given)
    finally:
        link.close()
    status(_("the board's tracks are now: %s") % ", ".join(given))


@players.command("list")
@db_option
@json_option
def players_list(db_url: str, as_json: bool) -> None:
    """Every player in the database, with games and boards played."""
    from cribboard import store

    emit(store.players.listing(read_db(db_url)), ["name", "games", "boards"], as_json)


@players.command("rename")
@click.argument("name")
@click.option("--player", "old", help="Rename this player everywhere (merging with NAME if it exists).")
@click.option("--track", type=click.IntRange(1, 3), help="The track to name (with --game or --board).")
@click.option("--game", type=ROW_ID, help="One game, by its id (cribboard matches).")
@click.option("--board", help="Every game of this board (a prefix of its id will do) ...")
@click.option("--match", type=click.IntRange(0, MAX_INT), help="... or only this match of it.")
@db_option
def players_rename(
    name: str,
    old: str | None,
    track: int | None,
    game: int | None,
    board: str | None,
    match: int | None,
    db_url: str,
) -> None:
    """Fix names after a sync: who played a track of a game, a match or a
    board, or a player's name everywhere. What the board reported is kept."""
    from cribboard.cli import player_names as p

    conn = open_db(db_url)
    if old is not None:
        if track or game or board or match is not None:
            raise UsageError(_("--player renames everywhere: no --track, --game, --board or --match with it"))
        n = p.rename(conn, old, name)
        status(
            ngettext("%(old)s is now %(new)s in %(n)d game", "%(old)s is now %(new)s in %(n)d games", n)
            % {"old": old, "new": name, "n": n}
        )
        return
    if track is None:
        raise UsageError(_("say which track (--track N) of which games, or --player OLD_NAME"))
    if match is not None and board is None:
        raise UsageError(_("--match needs --board: match numbers are a board's own"))
    changed = p.reassign(conn, name, track, game=game, board=board, match=match)
    status(
        ngettext(
            "track %(track)d is now %(name)s in %(n)d game", "track %(track)d is now %(name)s in %(n)d games", changed
        )
        % {"track": track, "name": name, "n": changed}
    )
