"""Plain-Python Go rules: the obviously-correct twin of :mod:`mctslab.go._board` for the tests.

A dict ``(row, col) -> colour`` board; liberties and strings by flood fill on every call; no
incremental state. Captures, suicide illegal, simple ko (the single stone just captured may
not be retaken at once by the side that lost it), Tromp-Taylor area score, single-point eye
test (orthogonal neighbours own or off board; at most one enemy diagonal in the middle, none
at the edge). Slow on purpose: correctness by inspection.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = 0, 1, 2


class ReferenceBoard:
    def __init__(self, size: int):
        self.size = size
        self.grid: dict[tuple[int, int], int] = {}
        self.ko: tuple[int, int] | None = None
        self.ko_color: int | None = None
        self.to_move = BLACK

    def on_board(self, point) -> bool:
        return 0 <= point[0] < self.size and 0 <= point[1] < self.size

    def neighbours(self, point):
        r, c = point
        return [q for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if self.on_board(q)]

    def get(self, point) -> int:
        return self.grid.get(point, EMPTY)

    def string(self, point):
        """(stones, liberties) of the string through ``point``, by flood fill."""
        color = self.get(point)
        stones, liberties, todo = {point}, set(), [point]
        while todo:
            for q in self.neighbours(todo.pop()):
                cq = self.get(q)
                if cq == EMPTY:
                    liberties.add(q)
                elif cq == color and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, liberties

    def legality(self, color: int, point) -> str | None:
        """None when legal, else "occupied", "ko" or "suicide"."""
        if point is None:
            return None
        if self.get(point) != EMPTY:
            return "occupied"
        if point == self.ko and color == self.ko_color:
            return "ko"
        trial = self.copy()
        trial.grid[point] = color
        trial._remove_dead_around(point, 3 - color)
        if not trial.string(point)[1]:
            return "suicide"
        return None

    def _remove_dead_around(self, point, color: int) -> list:
        """Remove the strings of ``color`` next to ``point`` that have no liberty."""
        dead = set()
        for q in self.neighbours(point):
            if self.get(q) == color and q not in dead:
                stones, liberties = self.string(q)
                if not liberties:
                    dead |= stones
        for q in dead:
            del self.grid[q]
        return sorted(dead)

    def play(self, color: int, point) -> list:
        """Play a legal move (ValueError otherwise); returns the captured points, sorted."""
        reason = self.legality(color, point)
        if reason is not None:
            raise ValueError(f"illegal move {point}: {reason}")
        self.to_move = 3 - color
        self.ko = self.ko_color = None
        if point is None:
            return []
        self.grid[point] = color
        captured = self._remove_dead_around(point, 3 - color)
        stones, liberties = self.string(point)
        if len(captured) == 1 and len(stones) == 1 and len(liberties) == 1:
            self.ko, self.ko_color = captured[0], 3 - color
        return captured

    def copy(self) -> ReferenceBoard:
        other = ReferenceBoard(self.size)
        other.grid = dict(self.grid)
        other.ko, other.ko_color, other.to_move = self.ko, self.ko_color, self.to_move
        return other

    def legal_points(self, color: int) -> list:
        return [(r, c) for r in range(self.size) for c in range(self.size)
                if self.legality(color, (r, c)) is None]

    def is_eye_like(self, point, color: int) -> bool:
        if self.get(point) != EMPTY:
            return False
        if any(self.get(q) != color for q in self.neighbours(point)):
            return False
        r, c = point
        diagonals = [(r + dr, c + dc) for dr in (-1, 1) for dc in (-1, 1)]
        on = [d for d in diagonals if self.on_board(d)]
        enemy = sum(1 for d in on if self.get(d) == 3 - color)
        return enemy == 0 if len(on) < 4 else enemy <= 1

    def area_score(self, komi: float) -> float:
        """Tromp-Taylor: Black's points minus White's minus komi."""
        score, seen = 0, set()
        for r in range(self.size):
            for c in range(self.size):
                point = (r, c)
                color = self.get(point)
                if color != EMPTY:
                    score += 1 if color == BLACK else -1
                elif point not in seen:
                    region, reach, todo = {point}, set(), [point]
                    while todo:
                        for q in self.neighbours(todo.pop()):
                            cq = self.get(q)
                            if cq == EMPTY and q not in region:
                                region.add(q)
                                todo.append(q)
                            elif cq != EMPTY:
                                reach.add(cq)
                    seen |= region
                    if reach == {BLACK}:
                        score += len(region)
                    elif reach == {WHITE}:
                        score -= len(region)
        return score - komi


# --- the strong engine's kernels: plain-Python twins ---------------------------------------

def self_atari_stones(ref: ReferenceBoard, color: int, point) -> int:
    """Stones of ``color``'s string through ``point`` after playing there when it is left with
    exactly one liberty (captures made first), else 0 (``_heavy.self_atari_stones``)."""
    trial = ref.copy()
    trial.grid[point] = color
    trial._remove_dead_around(point, 3 - color)
    stones, liberties = trial.string(point)
    return len(stones) if len(liberties) == 1 else 0


def tactical_stones(ref: ReferenceBoard, color: int, point) -> int:
    """Stones ``point`` captures; when none, stones of own strings in atari next to it that
    playing there leaves with two liberties or more (``_prior.tactical_stones``)."""
    enemy, own = set(), set()
    for q in ref.neighbours(point):
        cq = ref.get(q)
        if cq == EMPTY:
            continue
        stones, liberties = ref.string(q)
        if len(liberties) == 1:
            (enemy if cq != color else own).update(stones)
    if enemy:
        return len(enemy)
    if own:
        trial = ref.copy()
        trial.grid[point] = color
        trial._remove_dead_around(point, 3 - color)
        if len(trial.string(point)[1]) >= 2:
            return len(own)
    return 0


def cfg_distances(ref: ReferenceBoard, last, max_distance: int = 3) -> dict:
    """Common-fate-graph distance from ``last`` to every point within ``max_distance``: a step
    to a neighbour costs 1, except between two stones of the same colour (0); Dijkstra."""
    dist = {last: 0}
    todo = [(0, last)]
    while todo:
        todo.sort()
        d, p = todo.pop(0)
        if d > dist.get(p, 10**9):
            continue
        for q in ref.neighbours(p):
            same = ref.get(q) != EMPTY and ref.get(q) == ref.get(p)
            nd = d + (0 if same else 1)
            if nd < dist.get(q, 10**9):
                dist[q] = nd
                todo.append((nd, q))
    return {p: d for p, d in dist.items() if d <= max_distance}


def move_prior(ref: ReferenceBoard, color: int, point, last, weights, pattern_value) -> tuple:
    """``(virtual visits, virtual wins)`` of ``color`` at ``point`` (None: pass) after the
    move ``last`` (None: a pass), read from the rules in ``mctslab.go._prior``'s docstring;
    ``pattern_value(point)`` is the prior pattern file's value there."""
    visits, wins = weights.even, weights.even / 2
    if point is None:
        return visits, wins
    n = tactical_stones(ref, color, point)
    bonus = weights.capture_many if n >= 2 else (weights.capture_one if n == 1 else 0.0)
    visits, wins = visits + bonus, wins + bonus
    if self_atari_stones(ref, color, point) >= 2:
        visits += weights.self_atari
    if pattern_value(point) >= 100.0:
        visits, wins = visits + weights.pattern, wins + weights.pattern
    d = cfg_distances(ref, last).get(point) if last is not None else None
    bonus = {1: weights.distance1, 2: weights.distance2, 3: weights.distance3}.get(d, 0.0)
    visits, wins = visits + bonus, wins + bonus
    r, c = point
    height = min(r, c, ref.size - 1 - r, ref.size - 1 - c)
    near = [(r + dr, c + dc) for dr in range(-3, 4) for dc in range(-3, 4)
            if abs(dr) + abs(dc) <= 3 and ref.on_board((r + dr, c + dc))]
    if height <= 2 and all(ref.get(q) == EMPTY for q in near):
        visits += weights.edge
        wins += weights.edge if height == 2 else 0.0
    return visits, wins


def amaf_credits(moves: list, depth: int, child_moves: list) -> list:
    """Which of ``child_moves`` (moves from the node at ``depth`` of a simulation playing
    ``moves``, tree moves first) get an AMAF update: the first play of that point in
    ``moves[depth:]`` exists and is by the node's player to move (an even distance)."""
    out = []
    for p in child_moves:
        later = [j for j in range(depth, len(moves)) if moves[j] == p]
        out.append(p != 0 and bool(later) and (later[0] - depth) % 2 == 0)
    return out
