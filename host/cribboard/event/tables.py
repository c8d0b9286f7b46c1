# An event's tables and the boards at them. A table is a name (its number,
# unless the director named it) and is what the draw seats players at; a
# board is what reports a table's games. A table may have no board (a
# wooden one: its results are entered by hand), and the board at a table
# can change between rounds (one died, one was brought), so which board
# was where is kept round by round.
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Seat = tuple[str, str | None]  # a table's name and its board (None: a board of wood, results by hand)


@dataclass(frozen=True)
class Tables:
    names: tuple[str, ...]  # table 1 first
    changes: dict[str, tuple[tuple[int, str | None], ...]]  # per table, (from round, board or None), in order

    @classmethod
    def of(cls, names: Sequence[str], changes: Iterable[tuple[str, int, str | None]]) -> "Tables":
        """From the tables' names and the changes of board (table, from round, board)."""
        kept: dict[str, list[tuple[int, str | None]]] = {name: [] for name in names}
        for table, from_round, board in sorted(changes, key=lambda c: c[1]):
            kept.setdefault(table, []).append((from_round, board))
        return cls(tuple(names), {t: tuple(c) for t, c in kept.items()})

    def board_at(self, table: str | None, number: int) -> str | None:
        """The board at a table in a round (None: no board, or no table)."""
        board = None
        for from_round, at in self.changes.get(table or "", ()):
            if from_round > number:
                break
            board = at
        return board

    def table_of(self, board: str, number: int) -> str | None:
        """The table a board was at in a round (None: it was at none)."""
        return next((t for t in self.names if self.board_at(t, number) == board), None)

    def boards(self) -> list[str]:
        """Every board at any table in any round, in the tables' order: the boards whose games the night reads."""
        out: list[str] = []
        for name in self.names:
            for _from, board in self.changes.get(name, ()):
                if board is not None and board not in out:
                    out.append(board)
        return out

    def seats(self, number: int) -> list[Seat]:
        """Each table and its board in a round."""
        return [(t, self.board_at(t, number)) for t in self.names]
