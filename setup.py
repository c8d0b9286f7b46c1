# The package's build step beyond pyproject.toml: the message catalogues
# (host/cribboard/locale/*/LC_MESSAGES/cribboard.po, kept in the repository)
# are compiled to the .mo files gettext reads, into the wheel being built.
# Compiled files are never committed: `make` compiles them into the checkout
# for the development install (tools/catalogues.py compile).
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("host") / "cribboard" / "locale"


def compile_catalogues(source: Path, target: Path) -> list[Path]:
    """Compile every LANG/LC_MESSAGES/*.po under source to a .mo under target
    (Babel's reader and writer); returns the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(source.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogues(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:
            compile_catalogues(LOCALE, Path(self.build_lib) / "cribboard" / "locale")


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithCatalogues})
