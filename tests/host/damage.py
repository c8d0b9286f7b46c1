# A SQLite file damaged as a failing SD card or a cut write leaves one: a
# table's first page overwritten with junk, the rest of the file intact (a
# write elsewhere would still succeed beside it).
import sqlite3


def damage(db, table="games"):
    conn = sqlite3.connect(db)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    conn.close()
    with open(db, "r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xde\xad" * (size // 2))
