# The hardware: pin maps checked, wiring drawings, BOM and power budget.
import json
import os
import sys
from pathlib import Path

import click

from cribboard import resources
from cribboard.cli.base import cli
from cribboard.cli.options import json_option
from cribboard.cli.output import status
from cribboard.errors import CribboardError, UsageError
from cribboard.text.error_words import said
from cribboard.text.i18n import _, english


@cli.group()
def hardware():
    """Check pin maps and LED layouts; make the drawings, BOM and power budget."""


@hardware.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@json_option
def hardware_check(files: tuple[str, ...], as_json: bool) -> None:
    """Check your own layout or pin map files and explain each mistake.

    Exit status 2 if any file has a mistake (1 if one cannot be read)."""
    from cribboard.hardware import spec as hw

    results = []
    status = 0
    for f in files:
        try:  # JSON's message is English, whatever the language
            results.append({"file": f, "ok": True, "message": hw.check(f, english if as_json else _)})
        except hw.HardwareError as e:
            results.append({"file": f, "ok": False, "message": str(e)})
            status = max(status, e.exit_code)
    for r in results:
        if as_json:
            click.echo(json.dumps(r))
        elif r["ok"]:
            click.echo(r["message"])
        else:
            click.echo("cribboard: %s: %s" % (_("error"), r["message"]), err=True)
    if status:
        sys.exit(status)


@hardware.command("docs")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Folder to write to (default: hardware/ in the checkout CRIBBOARD_HOME names).",
)
@json_option
def hardware_docs(out: str | None, as_json: bool) -> None:
    """Write the wiring diagrams, drilling templates, BOM and power budget
    (all made from the pin maps and layouts)."""
    from cribboard.hardware import spec as hw
    from cribboard.hardware.documents import generated

    src = resources.hardware_dir()
    try:
        files = generated(src)
    except ValueError as e:
        raise hw.HardwareError(said(e)) from None
    if out:
        dest = Path(out)
    elif os.environ.get(resources.HOME_ENV):
        dest = src
    else:
        raise UsageError(_("say where to write them: --out FOLDER"))
    written = []
    for name, text in sorted(files.items()):
        target = dest / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        except OSError as e:
            raise CribboardError(_("cannot write %s: %s") % (target, e.strerror or e)) from None
        written.append(str(target))
        if not as_json:
            status(_("wrote %s") % target)
    if as_json:
        click.echo(json.dumps(written))
