"""mkpat parser and the compiler into Fotland's three 64-bit masks."""

import numpy as np
import pytest

from mctslab.manyfaces import patterns as P


@pytest.fixture(scope="module")
def by_file():
    return {name: P.load(name) for name in P.PATTERN_FILES}


def test_pattern_counts_and_sizes_agree_with_the_data_readme(by_file):
    # data/gnugo/README.md: 994 + 228 + 35 patterns; 978, 226, 35 fit in 8x8
    expected = {"patterns.db": (994, 978, 8, 11), "patterns2.db": (228, 226, 7, 12),
                "conn.db": (35, 35, 6, 8)}
    for name, (count, fit, rows, cols) in expected.items():
        r = P.size_report(by_file[name])
        assert (r["patterns"], r["fit_8x8"], r["max_rows"], r["max_cols"]) == (count, fit, rows, cols)
    assert sum(p.symmetry == "8" for p in by_file["patterns.db"]) == 923
    for pats in by_file.values():                     # names are unique within a file
        assert len({p.name for p in pats}) == len(pats)


def test_a_pattern_with_constraints_is_parsed_whole(by_file):
    cc2 = next(p for p in by_file["patterns.db"] if p.name == "CC2")
    assert cc2.rows == ("?.X", "O*O", "?X?") and cc2.move == (1, 1)
    assert (cc2.symmetry, cc2.classes) == ("8", "nBC")
    assert cc2.constraint_diagram == ("?aX", "b*c", "?X?")
    assert cc2.constraints == ("xplay_attack_either(*,a,a,b) || xplay_attack(*,a,c)",)
    ej47 = next(p for p in by_file["patterns.db"] if p.name == "EJ47")
    assert (ej47.height, ej47.width, ej47.bottom, ej47.top, ej47.left) == (6, 11, True, False, False)
    assert ej47.rows[3] == "X...*....xx"          # the comment after the row is dropped


@pytest.mark.parametrize("text,message", [
    ("Pattern A\n\n..\n.*\n\n", "line 1 .*pattern A.*no ':' line"),
    ("Pattern B\n\n...\n.*\n\n:8,a\n", "line 4 .*: row '.\\*' has 2 points"),
    ("Pattern C\n\n.Z.\n.*.\n\n:8,a\n", "line 3 .*: unknown diagram symbol 'Z'"),
    ("Pattern D\n\n|..\n.*.\n\n:8,a\n", "line 4 .*: edge '\\|' inconsistent"),
    ("Pattern E\n\n..\n.*\n\n:7,a\n", "line 6: unknown symmetry '7'"),
    ("Pattern F\n\n..\n;lib(a)>1\n:8,a\n", "line 4 .*';' line before the ':' line"),
    ("\n\nPattern\n", "line 3: 'Pattern' without a name"),
])
def test_malformed_patterns_name_file_and_line(text, message):
    with pytest.raises(ValueError, match="bad.db, " + message):
        P.parse_text(text, "bad.db")


def test_masks_by_hand():
    (p,) = P.parse_text("Pattern T\n\n?x\nO*\n\n:8,a\n", "t")
    c = P.compile_patterns([p])
    own, other, empty = (int(v) for v in c.masks[0])
    full = (1 << 64) - 1
    bit = {(r, col): 1 << (8 * r + col) for r in range(8) for col in range(8)}
    outside = full & ~(bit[0, 0] | bit[0, 1] | bit[1, 0] | bit[1, 1])
    assert own == outside | bit[0, 0] | bit[1, 0]                    # '?' and 'O'
    assert other == outside | bit[0, 0] | bit[0, 1]                  # '?' and 'x'
    assert empty == outside | bit[0, 0] | bit[0, 1] | bit[1, 1]      # '?', 'x', '*'
    assert (c.height[0], c.width[0], c.edges[0]) == (2, 2, 0)


def test_wide_patterns_are_split_into_8x8_blocks(by_file):
    c = P.compile_patterns(by_file["patterns2.db"])
    k = next(i for i, p in enumerate(c.patterns) if p.name == "Temp9")
    blocks = range(c.block_start[k], c.block_start[k + 1])
    assert len(blocks) == 2 and [c.block_dc[b] for b in blocks] == [0, 8]
    assert sorted(c.patterns[i].name for i in c.big) == ["Temp6", "Temp9"]
    assert c.block_start[-1] == len(c.patterns) + 2


def grids(p):
    """Every placement of p on a board, as the set of its transformed diagrams."""
    return {(g.shape, "".join(g.ravel()))
            for g in (P.transform_grid(p.grid(), o) for o in range(8))}


def test_orientations_tried_and_normalised_patterns_keep_every_placement(by_file):
    pats = [p for f in by_file.values() for p in f]
    disagree = []
    for p in pats:
        q = P.normalise(p)
        assert grids(q) == grids(p), p.name
        if q.top or q.left or q.bottom or q.right:
            assert q.top and not q.bottom and not q.right and q.left == (p.left + p.right +
                                                                       p.top + p.bottom == 2)
        orients = P.distinct_orientations(p)
        assert len(orients) == len(grids(p)) and orients[0] == 0
        if len(orients) > P.SYMMETRY_CODES[p.symmetry]:
            disagree.append(p.name)
    # GNU Go declares CC507/CC509 fully symmetric ('O'); their diagrams have 4 distinct
    # orientations, all of which we try. Elsewhere the code never claims more symmetry.
    assert disagree == ["CC507", "CC509"]


def test_hash_buckets_hold_every_pattern_its_key_points_allow():
    pats = P.load("conn.db")
    c = P.compile_patterns(pats)
    assert len(set(c.key_bits.tolist())) == 4
    for i in range(len(pats)):
        for o in range(8):
            n_in = sum(i in c.bucket_items[c.bucket_start[0, o, h]:c.bucket_start[0, o, h + 1]]
                       for h in range(256))
            chain = int(np.prod([bin(int(v)).count("1") for v in c.key_accept[i]]))
            edge = c.patterns[i].top
            assert n_in == (0 if edge or not (c.orient[i] >> o) & 1 else chain)
    assert 1 <= c.mean_chain() < 10
