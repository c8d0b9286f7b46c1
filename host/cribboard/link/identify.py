# What answered on a port instead of the Cribboard program, told from the
# lines it sent that failed their check: a board blinking the deploy-error
# pattern, CircuitPython, MicroPython's REPL, or something else; and what to
# do about it, in the reader's language.
from cribboard.text.i18n import _


def what_answers(heard: list[str]) -> str | None:
    """What answered instead of the Cribboard program, if it can be told:
    "deploy" (the deploy-error pattern), "circuitpython", "repl"; None."""
    text = " ".join(heard)
    if "the last deploy did not finish" in text:
        return "deploy"
    if "CircuitPython" in text:
        return "circuitpython"
    if "MicroPython" in text or ">>>" in text:
        return "repl"
    return None


def who(heard: list[str], port: str) -> str:
    """In words, what answered instead of the Cribboard program, and what to do."""
    text = " ".join(heard)
    kind = what_answers(heard)
    if kind == "deploy":  # cribmp.start, blinking the deploy-error pattern
        return (
            _(
                "it blinks the deploy-error pattern: its last deploy did not finish; run "
                "`cribboard flash --port %s` again"
            )
            % port
        )
    if kind == "circuitpython":
        return _(
            "it runs CircuitPython but not the Cribboard program: copy it onto the board's drive "
            "with `cribboard flash --drive PATH`"
        )
    if kind == "repl":
        banner = next((h for h in heard if "MicroPython" in h), _("MicroPython's REPL"))
        return _(
            "it answers as %(banner)s, not the Cribboard program: put it on with `cribboard flash --port %(port)s`"
        ) % {"banner": ascii(banner[:60])[1:-1], "port": port}
    if text:
        return _("something other than a Cribboard board answered (%s)") % ascii(text[:60])[1:-1]
    return _("nothing answered (is a board plugged in there, and running?)")
