"""The pattern playout policy (``mctslab.go._patterns``): GNU Go's mc_*.db files, the 3x3
table against a plain-Python matcher, self-atari and capture counts against flood fill, the
tactical step on hand-built positions, and whole pattern playouts."""

from pathlib import Path

import numpy as np
import pytest

from mctslab.go import _board as kb
from mctslab.go import _patterns as kpat
from mctslab.go import _playout as kp
from mctslab.go import patterns as pfiles
from mctslab.go.api import BLACK, WHITE, Board, parse_vertex, search
from mctslab.go.reference import ReferenceBoard
from mctslab.rng import seed_state

# counted by hand in the files: diagrams, ':' lines (GNU Go counts a ':' line as a pattern,
# as data/gnugo/README.md does: 28, 23, 3)
FILE_COUNTS = {"mc_mogo_classic": (28, 28), "mc_montegnu_classic": (17, 23),
               "mc_uniform": (3, 3)}

# --- a plain-Python twin ---------------------------------------------------------------------

_REL = {".": {0}, "O": {1}, "X": {2}, "o": {0, 1}, "x": {0, 2}, "?": {0, 1, 2},
        "%": {0, 1, 2, 3}, "|": {3}, "-": {3}, "+": {3}}


def _transforms():
    out = []
    for flip in (1, -1):
        out += [lambda r, c, f=flip: (r, f * c), lambda r, c, f=flip: (f * c, -r),
                lambda r, c, f=flip: (-r, -f * c), lambda r, c, f=flip: (-f * c, r)]
    return out


def ref_digit(ref: ReferenceBoard, point, color):
    if not ref.on_board(point):
        return 3
    c = ref.get(point)
    return 0 if c == 0 else (1 if c == color else 2)


def ref_after(ref: ReferenceBoard, color, point):
    """(liberties of the string through ``point``, stones captured) if ``color`` played there
    (ko and suicide ignored), by flood fill."""
    trial = ref.copy()
    trial.grid[point] = color
    captured = trial._remove_dead_around(point, 3 - color)
    return len(trial.string(point)[1]), len(captured)


def ref_state(ref, color, point, near):
    libs, ocap = ref_after(ref, color, point)
    xlibs, xcap = ref_after(ref, 3 - color, point)
    return (kpat.NEAR * near | kpat.OSAFE * (libs >= 2) | kpat.XSAFE * (xlibs >= 2)
            | kpat.XSUICIDE * (xlibs == 0) | min(ocap, 3) << kpat.OCAP_SHIFT
            | min(xcap, 3) << kpat.XCAP_SHIFT)


def ref_weight(source, ref, color, point, near):
    """GNU Go's rule read literally: the first ':' line whose diagram matches (in one of its 8
    orientations) and whose properties hold; 1 when none does."""
    state = ref_state(ref, color, point, near)
    r0, c0 = point
    for rule in source.rules:
        cells = source.diagrams[rule.diagram]
        for transform in _transforms():
            if all(ref_digit(ref, (r0 + dr, c0 + dc), color) in _REL[cells[i * 3 + j]]
                   for i in range(3) for j in range(3) if (i, j) != (1, 1)
                   for dr, dc in [transform(i - 1, j - 1)]):
                if rule.accept[state]:
                    return rule.weight
                break
    return 1.0


def random_position(size, seed, moves):
    rng = np.random.default_rng(seed)
    board, ref = Board(size), ReferenceBoard(size)
    for _ in range(moves):
        color = board.to_move
        legal = [m for m in ref.legal_points(color) if not ref.is_eye_like(m, color)]
        move = legal[rng.integers(len(legal))] if legal and rng.random() > 0.02 else None
        board.play(color, move)
        ref.play(color, move)
    return board, ref


def arrays(board):
    st = board.state
    return st.color, st.group, st.next_stone, st.stones, st.libs, st.lib_sum, st.lib_sumsq


# --- the files and the table ---------------------------------------------------------------

@pytest.mark.parametrize("name", pfiles.PATTERN_FILES)
def test_the_files_parse_with_their_pattern_counts(name):
    source = pfiles.parse_patterns(pfiles.pattern_path(name))
    assert (len(source.diagrams), len(source.rules)) == FILE_COUNTS[name]
    assert source.diagrams[0] == "oOoO*OoO?" and source.rules[0].weight == 0  # proper eye
    table = pfiles.load_patterns(name)
    assert pfiles.load_patterns(name) is table  # parsed once
    assert table.pattern_class.shape == (2, 4 ** 8)
    assert table.class_weight.shape[1] == kpat.NUM_STATES


def test_weights_are_symmetric_and_colour_blind():
    table = pfiles.load_patterns("mc_mogo_classic")
    rng = np.random.default_rng(1)
    codes = rng.integers(0, 4 ** 8, 3000)
    digits = pfiles._digits(codes)
    for perm in pfiles._symmetries():
        moved = np.zeros_like(codes)
        for i in range(8):
            moved |= digits[:, i] << (2 * perm[i])
        for mover in (0, 1):
            a = table.class_weight[table.pattern_class[mover, codes]]
            b = table.class_weight[table.pattern_class[mover, moved]]
            assert (a == b).all()
    swapped = (np.array([0, 2, 1, 3])[digits] << (2 * np.arange(8))).sum(axis=1)
    assert (table.pattern_class[1, codes] == table.pattern_class[0, swapped]).all()
    # mogo's hane ("1.1 First figure", XOX above .*., and OXO for the other side) on the four
    # sides of a stone, for both colours; the same shape with "far" or an empty board: 1
    for turn in range(4):
        board = Board(9)
        line = [(4, 3), (4, 4), (4, 5)] if turn % 2 == 0 else [(3, 4), (4, 4), (5, 4)]
        for color, move in zip((BLACK, WHITE, BLACK), line):
            board.play(color, move)
        below = [(3, 4), (4, 3), (5, 4), (4, 5)][turn]
        for color in (BLACK, WHITE):
            assert weight_at(board, table, color, below, near=True) == 100
            assert weight_at(board, table, color, below, near=False) == 1
            assert weight_at(Board(9), table, color, below, near=True) == 1


def weight_at(board, table, color, move, near):
    p = board.point(move)
    return kpat.pattern_weight(*arrays(board), board.size + 2, color, p, near,
                               table.pattern_class, table.class_weight, table.class_need)


def test_a_malformed_file_names_its_line(tmp_path: Path):
    cases = {
        "oOo\nO*O\n\n:0\n": ":1: a diagram has 2 rows",
        "oOo\nO*Z\noO?\n:0\n": ":2: bad diagram row",
        "oOo\nO.O\noO*\n:0\n": ":1: the move",
        "# c\n\n:5\n": ":3: a ':' line with no diagram",
        "oOo\nO*O\noO?\n\n:1x\n": ":5: the value",
        "???\n?*?\n???\n:1,nearby\n": ":4: unknown property 'nearby'",
        "???\n?*?\n???\n\n???\n?*?\n???\n:1\n": ":1: the diagram has no ':' value line",
        "???\n?*?\n???\n:1\n\n???\n?*?\n???\n": ":6: the diagram has no ':' value line",
        "???\n?*?\n???\n???\n:1\n": ":1: a diagram has more than 3 rows",
        "# only a comment\n": ": no patterns",
    }
    for text, message in cases.items():
        path = tmp_path / "bad.db"
        path.write_text(text)
        with pytest.raises(ValueError, match=message) as err:
            pfiles.parse_patterns(path)
        assert "bad.db" in str(err.value)


# --- kernels against the twin --------------------------------------------------------------

@pytest.mark.parametrize("name", ["mc_mogo_classic", "mc_montegnu_classic"])
def test_pattern_weights_and_candidates_match_the_twin(name):
    table = pfiles.load_patterns(name)
    source = table.source
    checked = candidates = 0
    for seed in range(6):
        board, ref = random_position(9, seed, 20 + 12 * seed)
        color = board.to_move
        st = board.state
        w = board.size + 2
        for r in range(9):
            for c in range(9):
                p = board.point((r, c))
                if st.color[p] != kb.EMPTY:
                    continue
                for who in (BLACK, WHITE):
                    libs, _ = ref_after(ref, who, (r, c))
                    assert min(libs, 2) == kpat.liberties_after(
                        st.color, st.group, st.next_stone, st.libs, st.lib_sum, st.lib_sumsq,
                        w, who, p)
                near = (r + c + seed) % 2 == 0
                got = kpat.pattern_weight(*arrays(board), w, color, p, near,
                                          table.pattern_class, table.class_weight,
                                          table.class_need)
                assert got == ref_weight(source, ref, color, (r, c), near), (seed, r, c)
                checked += 1
        # step 2's candidate set around a few points
        points, weights = np.zeros(kpat.CANDIDATES, np.int64), np.zeros(8)
        for r, c in ((4, 4), (0, 0), (0, 5), (7, 2)):
            last = board.point((r, c))
            k, total = kpat.near_pattern_moves(*arrays(board), st.info, color, last,
                                               table.pattern_class, table.class_weight,
                                               table.class_need, points, weights)
            expected = {}
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    q = (r + dr, c + dc)
                    if (dr, dc) == (0, 0) or not ref.on_board(q) or \
                            ref.legality(color, q) is not None or ref.is_eye_like(q, color):
                        continue
                    value = ref_weight(source, ref, color, q, True)
                    if value > 0:
                        expected[board.point(q)] = value
            assert dict(zip(points[:k].tolist(), weights[:k].tolist())) == expected
            assert total == pytest.approx(sum(expected.values()))
            candidates += k
    assert checked > 200 and candidates > 20


# --- the tactical step ----------------------------------------------------------------------

def play_all(board, *plays):
    for color, text in plays:
        board.play(color, parse_vertex(text, board.size))


def tactics(board, color=None):
    st = board.state
    out = np.zeros(kpat.CANDIDATES, np.int64)
    color = board.to_move if color is None else color
    n = kpat.tactical_moves(st.color, st.group, st.next_stone, st.libs, st.lib_sum,
                            st.lib_sumsq, st.info, color, st.info[kb.I_LAST], out)
    return sorted(board.move_of(p) for p in out[:n])


def test_tactics_escape_capture_and_refuse_a_dead_extension():
    # White's last move E6 puts Black E5 in atari; extending at D5 gives 3 liberties
    b = Board(9)
    play_all(b, (BLACK, "E5"), (WHITE, "E4"), (BLACK, "A9"), (WHITE, "F5"), (BLACK, "B9"),
             (WHITE, "E6"))
    assert tactics(b) == [parse_vertex("D5", 9)]
    # White's last move E5 is a self-atari next to Black stones: capture it at E4
    b = Board(9)
    play_all(b, (BLACK, "D5"), (WHITE, "H8"), (BLACK, "F5"), (WHITE, "H7"), (BLACK, "E6"),
             (WHITE, "E5"))
    assert tactics(b) == [parse_vertex("E4", 9)]
    # Black E1 in atari on the first line: extending at F1 leaves one liberty (G1), so there
    # is no escape and nothing to capture
    b = Board(9)
    play_all(b, (BLACK, "E1"), (WHITE, "F2"), (BLACK, "A9"), (WHITE, "D1"), (BLACK, "B9"),
             (WHITE, "E2"))
    assert b.state.libs[b.state.group[b.point((0, 4))]] == 1
    assert tactics(b) == []


def test_tactics_counter_capture_and_ko():
    # White E5 puts Black E4 in atari (liberty E3), but White D4 is in atari itself (D3):
    # both the escape and the counter-capture are candidates
    b = Board(9)
    play_all(b, (BLACK, "C4"), (WHITE, "D4"), (BLACK, "D5"), (WHITE, "F4"), (BLACK, "E4"),
             (WHITE, "E5"))
    assert tactics(b) == [parse_vertex("D3", 9), parse_vertex("E3", 9)]
    # the ko of test_board: Black C1 took B1 and is in atari, but White may not retake now
    b = Board(9)
    play_all(b, (BLACK, "A1"), (WHITE, "B1"), (BLACK, "B2"), (WHITE, "C2"), (BLACK, "J9"),
             (WHITE, "D1"), (BLACK, "C1"))
    assert b.ko_point == (0, 1) and b.to_move == WHITE
    assert tactics(b) == []
    assert tactics(b, color=BLACK) == []  # nothing of Black's is in atari


def test_the_lazy_sampler_draws_proportionally_to_the_exact_weights():
    # step 2 by rejection sampling against step 2 written out: every candidate of
    # near_pattern_moves with probability w / (S + F), "light" with F / (S + F)
    table = pfiles.load_patterns("mc_montegnu_classic")
    board, _ = random_position(9, 7, 60)
    st = board.state
    color = board.to_move
    points, weights = np.zeros(kpat.CANDIDATES, np.int64), np.zeros(8)
    rng = seed_state(3)
    checked = 0
    for last in range(st.color.shape[0]):
        if st.color[last] == kb.BORDER:
            continue
        k, total = kpat.near_pattern_moves(*arrays(board), st.info, color, last,
                                           table.pattern_class, table.class_weight,
                                           table.class_need, points, weights)
        if k < 3 or len(set(weights[:k].tolist())) < 2:
            continue
        expected = dict(zip(points[:k].tolist(), weights[:k].tolist()))
        w = board.size + 2
        near_empty = sum(st.color[last + d] == kb.EMPTY
                         for d in (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1))
        for far_weight in (0.0, 1.0):
            far = far_weight * (st.info[kb.I_NUM_EMPTY] - near_empty)
            policy = pfiles.policy_data(table, far_weight=far_weight)
            draws = 4000
            counts = {}
            for _ in range(draws):
                p = kpat.sample_near_move(*arrays(board), st.info, rng, color, last, policy)
                counts[int(p)] = counts.get(int(p), 0) + 1
            assert set(counts) <= set(expected) | {-1}
            for p, weight in list(expected.items()) + [(-1, far)]:
                prob = (weight if p != -1 else far) / (total + far)
                sigma = np.sqrt(draws * prob * (1 - prob)) + 1e-9
                # 5 sigma over ~40 comparisons: a false alarm has probability ~1e-5
                assert abs(counts.get(p, 0) - draws * prob) < 5 * sigma + 1, (last, p)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


# --- whole playouts -------------------------------------------------------------------------

def pattern_data(name="mc_montegnu_classic"):
    return pfiles.policy_data(pfiles.load_patterns(name))


def test_pattern_playouts_are_legal_and_never_fill_an_own_eye():
    # one kernel move at a time (playout with max_moves=1 on the same state and RNG), each
    # checked against the plain-Python reference board before it is played there too
    for name, size, seed in (("mc_montegnu_classic", 9, 0), ("mc_mogo_classic", 9, 1),
                             ("mc_montegnu_classic", 7, 2)):
        data = pattern_data(name)
        board, ref = Board(size), ReferenceBoard(size)
        st, rng = board.state, seed_state(seed)
        moves = passes = 0
        while st.info[kb.I_PASSES] < 2 and moves < 3 * size * size:
            color = int(st.info[kb.I_TO_MOVE])
            kp.playout(st, rng, kp.PATTERN, data, 6.5, 1, np.zeros(0, np.uint64), kp.no_tabu(),
                       0)
            p = int(st.info[kb.I_LAST])
            move = board.move_of(p)
            if move is None:
                passes += 1
                legal = [m for m in ref.legal_points(color) if not ref.is_eye_like(m, color)]
                assert not legal  # the light fallback passes only when nothing is left
            else:
                assert ref.legality(color, move) is None, (moves, move)
                assert not ref.is_eye_like(move, color), (moves, move)
            ref.play(color, move)
            grid = np.zeros((size, size), np.int8)
            for (r, c), v in ref.grid.items():
                grid[r, c] = v
            assert (board.stones() == grid).all()
            moves += 1
        assert st.info[kb.I_PASSES] == 2 and moves > size * size // 2 and passes >= 2


def test_the_pattern_policy_is_dispatched_and_deterministic():
    # White's last move E5 is a self-atari: the first playout move is the capture at E4
    b = Board(9)
    play_all(b, (BLACK, "D5"), (WHITE, "H8"), (BLACK, "F5"), (WHITE, "H7"), (BLACK, "E6"),
             (WHITE, "E5"))
    hashes = np.zeros(1, np.uint64)
    for seed in range(5):
        trial = b.copy()
        kp.playout(trial.state, seed_state(seed), kp.PATTERN, pattern_data(), 6.5, 1, hashes,
                   kp.no_tabu(), 0)
        assert trial.move_of(int(trial.state.info[kb.I_LAST])) == parse_vertex("E4", 9)
    # same seed, same playout and same search; the light policy plays differently
    runs = []
    for policy, data in ((kp.PATTERN, pattern_data()), (kp.PATTERN, pattern_data()),
                         (kp.LIGHT, np.zeros(0))):
        st = kb.new_state(9)
        hashes = np.zeros(200, np.uint64)
        score, moves = kp.playout(st, seed_state(11), policy, data, 6.5, 243, hashes,
                                  kp.no_tabu(), 0)
        runs.append((score, moves, hashes.tolist()))
    assert runs[0] == runs[1] and runs[0] != runs[2]
    board = Board.from_moves(9, [(BLACK, (4, 4)), (WHITE, (2, 6))])
    a = search(board, 300, policy="pattern", seed=5)
    c = search(board, 300, policy="pattern", seed=5)
    assert (a.move, a.children) == (c.move, c.children) and a.playouts == 300
    mogo = search(board, 300, policy="pattern", patterns="mc_mogo_classic", seed=5)
    assert mogo.children != a.children
