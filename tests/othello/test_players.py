"""Players and matches: kernels replay the reference game for game, standard vs standard is even."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslab.othello import api, reference, wpc
from mctslab.othello._players import play_game, play_match
from mctslab.rng import seed_state

variables = st.lists(st.floats(-1, 1, allow_nan=False), min_size=10, max_size=10)
# Small integer weights make many exact ties, exercising the random tie-break.
tie_heavy = st.lists(st.integers(-2, 2), min_size=10, max_size=10)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), black=st.one_of(variables, tie_heavy),
       white=st.one_of(variables, tie_heavy), black_random=st.booleans(),
       white_random=st.booleans(), epsilon=st.sampled_from([0.0, 0.1, 0.5]))
def test_kernel_game_equals_reference_game(seed, black, white, black_random, white_random, epsilon):
    black_w, white_w = wpc.expand(black), wpc.expand(white)
    kernel_rng, reference_rng = seed_state(seed), seed_state(seed)
    diff = play_game(wpc.row_tables(black_w), black_random, wpc.row_tables(white_w), white_random,
                     epsilon, kernel_rng)
    expected = reference.play_game(wpc.quantize(black_w), black_random, wpc.quantize(white_w),
                                   white_random, epsilon, reference_rng)
    assert diff == expected
    # Same random draws in the same order: the two states end identical.
    assert np.array_equal(kernel_rng, reference_rng)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), a=variables, b=variables)
def test_match_kernel_equals_reference_match(seed, a, b):
    a_w, b_w = wpc.expand(a), wpc.expand(b)
    got = play_match(wpc.row_tables(a_w), False, wpc.row_tables(b_w), False, 0.1, 6, seed_state(seed))
    want = reference.play_match(wpc.quantize(a_w), False, wpc.quantize(b_w), False, 0.1, 6,
                                seed_state(seed))
    assert np.array_equal(got, want)


def test_standard_vs_standard_is_even():
    result = api.match("standard", "standard", games=20_000, epsilon=0.1, seed=2024)
    assert result.games == 20_000
    # Per-game sd ~0.49 -> standard error ~0.0035 over 20,000 games; 0.01 is ~3 standard errors.
    assert abs(result.score - 0.5) <= 0.01, result


def test_standard_beats_random():
    result = api.match("standard", "random", games=2_000, seed=7)
    # Observed ~0.81 with epsilon = 0.1; a broken evaluation sign would give well under 0.5.
    assert result.score > 0.7, result


def test_same_seed_same_match_different_seed_different_match():
    a = api.match("standard", wpc.LUCAS_RUNARSSON_2006, games=400, seed=11)
    b = api.match("standard", wpc.LUCAS_RUNARSSON_2006, games=400, seed=11)
    c = api.match("standard", wpc.LUCAS_RUNARSSON_2006, games=400, seed=12)
    assert (a.wins, a.draws, a.losses) == (b.wins, b.draws, b.losses)
    assert (a.wins, a.draws, a.losses) != (c.wins, c.draws, c.losses)


def test_colours_alternate_and_epsilon_zero_is_deterministic_without_ties():
    # Two generic asymmetric 64-weight WPCs with epsilon 0 never tie (a symmetric one ties on
    # the four symmetric opening moves): every game with A Black is the same game, and so is
    # every game with A White.
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-1, 1, 64), rng.uniform(-1, 1, 64)
    ta, tb = wpc.row_tables(a), wpc.row_tables(b)
    first = play_game(ta, False, tb, False, 0.0, seed_state(1))
    second = play_game(tb, False, ta, False, 0.0, seed_state(1))
    outcome = play_match(ta, False, tb, False, 0.0, 10, seed_state(5))
    expected = np.zeros(3, dtype=np.int64)
    for diff in (first, -second):
        expected[0 if diff > 0 else 1 if diff == 0 else 2] += 5
    assert np.array_equal(outcome, expected)


def test_unknown_player_and_bad_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="unknown player 'alphabeta'"):
        api.match("alphabeta", "random", games=2)
    with pytest.raises(ValueError, match="epsilon"):
        api.match("standard", "random", games=2, epsilon=1.5)
    with pytest.raises(ValueError, match="games"):
        api.match("standard", "random", games=0)
