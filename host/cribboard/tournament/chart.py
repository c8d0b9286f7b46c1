# The bracket chart: where each seed stands in a full bracket, so that the
# top seeds meet last (1 and 2 only in the final, the top four only in the
# semi-finals, ...), every first-round pair adding up to the bracket's size
# plus one. The ACC approves one chart, read column after column; its
# sections follow one another as this order does (in the 64-player part,
# 5-60 comes after 8-57, 3-62 after 4-61 and 7-58 after 6-59): each seed of
# the half-size chart opens out into its pair, the higher seed above at
# even places and below at odd ones.


def order(size: int) -> list[int]:
    """The seeds of a full bracket of size players (a power of two) from the top line down."""
    if size < 2 or size & (size - 1):
        raise ValueError("a full bracket is a power of two of at least 2, not %d" % size)
    seeds = [1, 2]
    while len(seeds) < size:
        n = 2 * len(seeds) + 1
        grown: list[int] = []
        for i, s in enumerate(seeds):
            grown += [s, n - s] if i % 2 == 0 else [n - s, s]
        seeds = grown
    return seeds


def first_round(size: int) -> list[tuple[int, int]]:
    """The chart's first-round pairs, top down, each as (higher seed, lower seed)."""
    seeds = order(size)
    return [(min(a, b), max(a, b)) for a, b in zip(seeds[::2], seeds[1::2])]
