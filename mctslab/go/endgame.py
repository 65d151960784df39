"""The end of a game: who owns each point, which stones are dead, the plain count, and the
pass rule that wins without a referee.

* :func:`area_owner` - the Tromp-Taylor owner of each point of a board (its stone, or the one
  colour an empty region reaches); :func:`plain_margin` - the *plain count*: Black's area minus
  White's minus komi with every stone on the board alive (Tromp-Taylor, as CGOS and KGS count
  a Chinese game whose dead stones were not removed); :func:`plain_winner` - a stored match
  game's winner by that count (from its ``area_score``, else from its SGF);
* :func:`ownership` - the engine's own reading of a position: the share of ``playouts``
  random playouts (to two passes, never filling an own one-point eye) in which each point ends
  Black's and White's. ``policy`` is the engine's: ``light`` (the UCT engine's uniform
  playouts) or the strong engine's ``pattern``/``heavy`` (:mod:`mctslab.go._heavy`);
  :func:`dead_stones` - the stones whose point ends the other colour's in more than
  ``threshold`` of them (``final_status_list dead``); :func:`seki_stones` - the strings in
  seki, read statically once those are removed (``final_status_list seki``);
* the pass rules (:data:`PASS_RULES`, ``EngineSettings.pass_rule``): ``estimate`` passes when
  the search prefers it, or when the opponent has just passed and the count after removing
  the stones light playouts find dead wins: a referee that removes dead stones agrees, a plain
  count may not. ``plain`` passes only when the plain count wins
  (:func:`plain_count_wins`); when the search prefers to pass and the plain count loses while
  the search still expects to win, or the reading finds dead stones of the opponent, it plays
  on (:func:`play_on_move`): first a liberty of a string of the opponent's read as dead
  (:func:`capture_moves`), else the search's most visited other move that neither fills an
  own one-point eye, nor is a self-atari, nor lies in the area the reading gives us.

The designs of Pachi (``uct_pass_is_safe`` with ``pass_all_alive``: pass only when no dead
stone of the opponent is left and the count with every stone alive wins; else the second most
visited move unless it fills an own eye) and michi were read; no code was taken.
"""

from __future__ import annotations

import numpy as np

from mctslab.go import _board as kb
from mctslab.go import _heavy, _playout, sgf, strong
from mctslab.go.api import BLACK
from mctslab.rng import seed_state

__all__ = ["PASS_RULES", "area_owner", "own_eye", "non_eye_moves", "ownership", "dead_stones",
           "seki_stones", "plain_margin", "plain_count_wins", "plain_winner", "capture_moves", "play_on_move"]

PASS_RULES = ("estimate", "plain")
OWN_AREA = 0.7  # a point the reading gives us in more than this share of playouts is ours


def own_eye(stones: np.ndarray, row: int, col: int, color: int) -> bool:
    """Is the empty point (row, col) surrounded on every side by ``color`` (a one-point eye)?"""
    size = stones.shape[0]
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < size and 0 <= c < size and stones[r, c] != color:
            return False
    return True


def non_eye_moves(board, color) -> list:
    """Legal moves of ``color`` that do not fill its own one-point eyes."""
    stones = board.stones()
    return [m for m in board.legal_moves(color) if not own_eye(stones, m[0], m[1], color)]


def _neighbours(size: int, r: int, c: int):
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < size and 0 <= cc < size:
            yield rr, cc


def area_owner(stones: np.ndarray) -> np.ndarray:
    """Tromp-Taylor owner of each point: its stone, or the only colour an empty region reaches
    (0: neither). Per point, which the kernel's ``area_score`` (a sum) does not give."""
    size = stones.shape[0]
    owner = stones.astype(np.int8).copy()
    seen = np.zeros_like(owner, dtype=bool)
    for r0 in range(size):
        for c0 in range(size):
            if stones[r0, c0] != 0 or seen[r0, c0]:
                continue
            region, reach, stack = [], set(), [(r0, c0)]
            seen[r0, c0] = True
            while stack:
                r, c = stack.pop()
                region.append((r, c))
                for rr, cc in _neighbours(size, r, c):
                    if stones[rr, cc] == 0 and not seen[rr, cc]:
                        seen[rr, cc] = True
                        stack.append((rr, cc))
                    elif stones[rr, cc] != 0:
                        reach.add(int(stones[rr, cc]))
            if len(reach) == 1:
                color = reach.pop()
                for r, c in region:
                    owner[r, c] = color
    return owner


def _light_owned(board, playouts: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """Counts of playouts in which each point ends Black's / White's (light playouts)."""
    width = board.size + 2
    scratch = kb.clone_state(board.state)
    no_policy_data, no_hashes = np.zeros(0, np.float64), np.zeros(0, np.uint64)
    no_tabu = _playout.no_tabu()
    black = np.zeros((board.size, board.size), np.int32)
    white = np.zeros_like(black)
    for _ in range(playouts):
        kb.copy_state(board.state, scratch)
        scratch.info[kb.I_PASSES] = 0  # after the game's two passes the playout must still run
        _playout.playout(scratch, rng, _playout.LIGHT, no_policy_data, 0.0,
                         3 * board.size * board.size, no_hashes, no_tabu, 0)
        owner = area_owner(scratch.color.reshape(width, width)[1:-1, 1:-1])
        black += owner == 1
        white += owner == 2
    return black, white


def _strong_owned(board, playouts: int, rng, policy: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_light_owned` with the strong engine's playouts (``pattern`` or ``heavy``)."""
    width, size = board.size + 2, board.size
    max_moves = 3 * size * size
    scratch = kb.clone_state(board.state)
    bundle = strong.playout_policy(policy)
    tabu = _playout.Tabu(*_playout.no_tabu()[:4], np.zeros(2, np.int64))
    seq, no_hashes = np.zeros(max_moves + 1, np.int32), np.zeros(0, np.uint64)
    black = np.zeros((size, size), np.int32)
    white = np.zeros_like(black)
    for _ in range(playouts):
        kb.copy_state(board.state, scratch)
        scratch.info[kb.I_PASSES] = 0
        _heavy.playout_recorded(scratch, rng, bundle, 0.0, max_moves, seq, 0, tabu, -1,
                                no_hashes)
        owner = area_owner(scratch.color.reshape(width, width)[1:-1, 1:-1])
        black += owner == 1
        white += owner == 2
    return black, white


def ownership(board, playouts: int = 200, seed: int = 0,
              policy: str = "light") -> tuple[np.ndarray, np.ndarray]:
    """The shares of ``playouts`` playouts from ``board`` (``policy``: ``light``, or the strong
    engine's ``pattern`` or ``heavy``) in which each point ends Black's and White's
    (``float64[size, size]`` each, indexed ``[row, col]``)."""
    if playouts < 1:
        zeros = np.zeros((board.size, board.size))
        return zeros, zeros.copy()
    rng = seed_state(seed)
    if policy == "light":
        black, white = _light_owned(board, playouts, rng)
    else:
        black, white = _strong_owned(board, playouts, rng, policy)
    return black / playouts, white / playouts


def dead_stones(board, playouts: int = 64, threshold: float = 0.7, seed: int = 0,
                policy: str = "light") -> list:
    """Stones (row, col) whose points ``policy`` playouts (:func:`ownership`) give to the other
    colour more than ``threshold`` of the time."""
    start = board.stones()
    if not start.any() or playouts < 1:
        return []
    black, white = ownership(board, playouts, seed, policy)
    other = np.where(start == 1, white, np.where(start == 2, black, 0.0))
    return [(int(r), int(c)) for r, c in np.argwhere((start != 0) & (other > threshold))]


def plain_margin(board, komi: float | None = None) -> float:
    """The plain count: Black's Tromp-Taylor area minus White's minus komi, every stone on the
    board alive (``Board.area_score``)."""
    return board.area_score(komi)


def plain_count_wins(board, color: int, komi: float | None = None) -> bool:
    """Does ``color`` win the plain count of ``board`` (a draw is no win)?"""
    margin = plain_margin(board, komi)
    return margin > 0 if color == BLACK else margin < 0


def plain_winner(result: dict) -> str | None:
    """A stored match game's winner by the plain count: ``"B"``, ``"W"``, ``""`` for a draw,
    None when it cannot be told (not recorded). A resignation is lost by every count; a game
    scored at its end is counted from its ``area_score`` (Black's margin, every stone alive),
    else from its final board replayed from its SGF (older stores)."""
    if result.get("end") == "resign":
        return result.get("winner")
    area = result.get("area_score")
    if area is None and result.get("sgf"):
        try:
            board, _ = sgf.load(result["sgf"].encode())
            area = board.area_score()
        except (ValueError, KeyError):
            return None
    if area is None:
        return None
    return "B" if area > 0 else ("W" if area < 0 else "")


def _string(stones: np.ndarray, r0: int, c0: int) -> tuple[list, set]:
    """The stones of the string at (r0, c0) and its liberties."""
    size, color = stones.shape[0], stones[r0, c0]
    members, liberties, stack, seen = [], set(), [(r0, c0)], {(r0, c0)}
    while stack:
        r, c = stack.pop()
        members.append((r, c))
        for rr, cc in _neighbours(size, r, c):
            if stones[rr, cc] == 0:
                liberties.add((rr, cc))
            elif stones[rr, cc] == color and (rr, cc) not in seen:
                seen.add((rr, cc))
                stack.append((rr, cc))
    return members, liberties


def _approaches(stones: np.ndarray, color: int, point) -> bool:
    """Can ``color`` play the empty ``point`` without being captured at once: the move
    captures, or its string keeps two liberties or more (not a suicide, not a self-atari)?"""
    after = stones.copy()
    after[point] = color
    for q in _neighbours(after.shape[0], *point):
        if after[q] == 3 - color and not _string(after, *q)[1]:
            return True  # a capture
    return len(_string(after, *point)[1]) >= 2


def seki_stones(stones: np.ndarray, dead=()) -> list[tuple[int, int]]:
    """The stones in seki, read statically from a final position once the ``dead`` stones are
    removed: a string is in seki when it has a liberty that neither colour owns (an empty
    region both reach: :func:`area_owner`) and neither colour can play any such liberty of it
    without being captured at once (:func:`_approaches`): the two-shared-liberty seki, and the
    seki of one eye each and a shared liberty. A string that lives with two eyes is never in
    seki (its own move on a shared point keeps two liberties); a string of a seki group that
    touches no shared liberty is not listed (the reading is of strings, not of groups). It
    does not read what a capture leaves: where giving up stones on a shared liberty kills (the
    capturer's space a bulky five), the strings look like a seki here, and only the ``dead``
    stones, read first by playouts (``final_status_list``), tell them apart
    (``tests/go/test_seki.py`` checks both kinds against GNU Go 3.8)."""
    board = np.array(stones, copy=True)
    for point in dead:
        board[tuple(point)] = 0
    owner = area_owner(board)
    seen, found = set(), []
    for r, c in np.argwhere(board != 0):
        if (int(r), int(c)) in seen:
            continue
        members, liberties = _string(board, int(r), int(c))
        seen.update(members)
        shared = [p for p in liberties if owner[p] == 0]
        if shared and not any(_approaches(board, color, p) for p in shared for color in (1, 2)):
            found += members
    return sorted(found)


def _safe(board, color: int, move) -> bool:
    """Is ``move`` legal for ``color``, not a fill of its own one-point eye, and not a
    self-atari (its string keeps two liberties, or the move captures)?"""
    stones = board.stones()
    if not board.is_legal(color, move) or own_eye(stones, move[0], move[1], color):
        return False
    after = board.copy()
    if after.play(color, move):
        return True
    return len(_string(after.stones(), *move)[1]) >= 2


def capture_moves(board, color: int, dead) -> list:
    """The liberties of the opponent's strings holding a stone in ``dead`` that ``color`` may
    play safely (:func:`_safe`), the strings with fewest liberties first."""
    stones = board.stones()
    done, ranked = set(), []
    for r, c in dead:
        if stones[r, c] != 3 - color or (r, c) in done:
            continue
        members, liberties = _string(stones, r, c)
        done.update(members)
        ranked.append((len(liberties), sorted(liberties)))
    moves = []
    for _, liberties in sorted(ranked):
        moves += [m for m in liberties if m not in moves and _safe(board, color, m)]
    return moves


def play_on_move(board, color: int, children, dead, own_share=None):
    """The move the ``plain`` rule plays in place of a pass the plain count would lose: a
    :func:`capture_moves` move (the most visited by the search first), else the search's most
    visited non-pass child (``children``: ``(move, visits, win rate)``) that is safe and not
    in our own area (``own_share``: the share of playouts each point ends ours); None: pass."""
    visits = {m: v for m, v, _ in children if m is not None}
    captures = capture_moves(board, color, dead)
    if captures:
        return max(captures, key=lambda m: (visits.get(m, 0), -captures.index(m)))
    for move, _, _ in sorted(children, key=lambda child: -child[1]):
        if move is None or (own_share is not None and own_share[move] > OWN_AREA):
            continue
        if _safe(board, color, move):
            return move
    return None
