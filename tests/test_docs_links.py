# The documents' links go somewhere: every relative link in the README,
# CONTRIBUTING, docs/, hardware/ and tests/rp2040's guide names a file of
# the repository, and a #fragment a heading of it (as GitHub makes anchors).
# And the README stays a newcomer's page: short, with the rest in docs/.
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "hardware" / "README.md",
    ROOT / "tests" / "rp2040" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)", re.S)


def anchors(path):
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    out = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return out


def test_every_relative_link_names_a_file_and_a_heading_that_exist():
    broken = []
    for doc in DOCS:
        for target in LINK.findall(doc.read_text()):
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            path, _, fragment = target.partition("#")
            where = (doc.parent / path).resolve() if path else doc
            if not where.exists():
                broken.append("%s: %s (no such file)" % (doc.relative_to(ROOT), target))
            elif fragment and where.suffix == ".md" and fragment not in anchors(where):
                broken.append("%s: %s (no such heading)" % (doc.relative_to(ROOT), target))
    assert broken == []


def test_the_readme_is_a_newcomers_page_and_each_long_document_lists_its_contents():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 160
    for needed in (
        "make run",
        "make test",
        "pip install .",
        "not on PyPI yet",
        "docs/cli.md",
        "docs/testing.md",
        "docs/architecture.md",
        "CONTRIBUTING.md",
        "docs/board-page.png",
    ):
        assert needed in readme, needed
    for name in ("cli.md", "testing.md", "architecture.md", "playing.md"):
        assert "Contents:" in (ROOT / "docs" / name).read_text(), name
