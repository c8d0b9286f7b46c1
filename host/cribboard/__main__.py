# `python -m cribboard` and the `cribboard` command (pyproject.toml's entry point): Ctrl-C while the
# command's modules load (a second or so on a slow machine) ends it as Ctrl-C does later, in one line.
import sys


def main() -> None:
    try:
        from cribboard.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write("\ncribboard: aborted\n")
        sys.exit(130)
    command()


if __name__ == "__main__":
    main()
