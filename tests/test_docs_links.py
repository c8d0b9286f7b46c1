# The documents' links go somewhere: every relative link in the README,
# CONTRIBUTING, docs/, hardware/ and tests/rp2040's guide names a file of
# the repository, and a #fragment a heading of it (as GitHub makes anchors).
# And the README stays a newcomer's page: short, with the rest in docs/.
import fnmatch
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


def test_the_architecture_tree_names_what_is_there_and_every_top_folder():
    """docs/architecture.md's tree of folders: each path it names exists, and each folder at the top of the
    repository (but the set-up's own) is in it."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    tree = text.split("## The folders", 1)[1].split("```", 2)[1]
    named, top = set(), None
    for line in tree.splitlines():
        if not line.strip():
            continue
        token = line.split()[0]
        if not ("/" in token or token.endswith((".py", ".json"))):
            continue  # a description's continuation
        if not line.startswith(" "):
            top = token
            path = ROOT / token
        else:
            path = ROOT / top / token
        assert path.exists(), "docs/architecture.md names %s, which is not there" % path.relative_to(ROOT)
        named.add(path.relative_to(ROOT).parts[0])
    ignored = [line.strip().rstrip("/") for line in (ROOT / ".gitignore").read_text().splitlines()]
    kept = {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and not p.name.startswith(".") and not any(fnmatch.fnmatch(p.name, g) for g in ignored if g)
    }  # (what the set-up makes, .gitignore's, is not the repository's)
    missing = sorted(kept - named)
    assert not missing, "folders the tree in docs/architecture.md does not show: %s" % missing
