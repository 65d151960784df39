"""LLVM-level bitboard primitives for the Othello kernels (numba intrinsics).

Why intrinsics: numba leaves LLVM's SLP vectoriser off, so the eight directions of
move generation and flipping run as eight scalar chains. Written here as one
``<4 x i64>`` chain per shift sense (lanes = directions +-1, +-8, +-9, +-7) they
compile to AVX2 variable shifts (``vpsllvq``/``vpsrlvq``) and the perft rate goes
from ~205 M to ~390 M leaves/s on this machine (see ``docs/bench/othello.md``).
On a CPU without AVX2 LLVM lowers the same IR to scalar code: same results, slower.

Semantics are exactly those of the plain shift-and-mask formulation in
``mctslab.othello.reference`` (tests compare them on random positions):

* ``legal_moves_ir(player, opponent)``: squares where ``player`` flips >= 1 disc.
* ``flips_ir(player, opponent, move)``: discs flipped by the single-bit ``move``.
* ``popcount_ir(x)``: ``llvm.ctpop``.

Bit layout: square = row * 8 + col, a1 = bit 0. A shift by 1 moves one file east,
by 8 one rank north, by 9 north-east, by 7 north-west. Horizontal and diagonal
lanes use the opponent discs masked to files b..g (``0x7E...``) so a run cannot wrap
from the h-file into the a-file of the next rank; the vertical lane needs no mask.
These functions are only callable from jitted code; ``_board`` wraps them.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_V4 = ir.VectorType(_I64, 4)
_SHIFT = ir.Constant(_V4, [1, 8, 9, 7])  # east, north, north-east, north-west
_SHIFT_TWICE = ir.Constant(_V4, [2, 16, 18, 14])
_ZERO4 = ir.Constant(_V4, [0, 0, 0, 0])
_INNER_COLUMNS = ir.Constant(_I64, 0x7E7E7E7E7E7E7E7E)


def _check_uint64(*args) -> bool:
    return all(arg == types.uint64 for arg in args)


def _declare(builder, name, fn_type):
    existing = builder.module.globals.get(name)
    return existing if existing is not None else ir.Function(builder.module, fn_type, name=name)


def _splat(builder, value):
    vector = builder.insert_element(ir.Constant(_V4, ir.Undefined), value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(vector, ir.Constant(_V4, ir.Undefined), ir.Constant(ir.VectorType(_I32, 4), [0, 0, 0, 0]))


def _run_masks(builder, opponent):
    """Per-lane opponent mask: files b..g for the wrapping directions, all for vertical."""
    inner = builder.and_(opponent, _INNER_COLUMNS)
    return builder.insert_element(_splat(builder, inner), opponent, ir.Constant(_I32, 1))


def _reduce_or(builder, vector):
    fn = _declare(builder, "llvm.vector.reduce.or.v4i64", ir.FunctionType(_I64, [_V4]))
    return builder.call(fn, [vector])


@intrinsic
def legal_moves_ir(typingctx, player, opponent):
    """Legal-move bitboard; Kogge-Stone doubling, 4 shift-and steps per direction."""
    if not _check_uint64(player, opponent):
        return None

    def codegen(context, builder, signature, args):
        player_bits, opponent_bits = args
        mask = _run_masks(builder, opponent_bits)
        mover = _splat(builder, player_bits)
        left = builder.and_(mask, builder.shl(mover, _SHIFT))
        left = builder.or_(left, builder.and_(mask, builder.shl(left, _SHIFT)))
        pair_left = builder.and_(mask, builder.shl(mask, _SHIFT))
        left = builder.or_(left, builder.and_(pair_left, builder.shl(left, _SHIFT_TWICE)))
        left = builder.or_(left, builder.and_(pair_left, builder.shl(left, _SHIFT_TWICE)))
        right = builder.and_(mask, builder.lshr(mover, _SHIFT))
        right = builder.or_(right, builder.and_(mask, builder.lshr(right, _SHIFT)))
        pair_right = builder.lshr(pair_left, _SHIFT)
        right = builder.or_(right, builder.and_(pair_right, builder.lshr(right, _SHIFT_TWICE)))
        right = builder.or_(right, builder.and_(pair_right, builder.lshr(right, _SHIFT_TWICE)))
        targets = builder.or_(builder.shl(left, _SHIFT), builder.lshr(right, _SHIFT))
        empty = builder.not_(builder.or_(player_bits, opponent_bits))
        return builder.and_(_reduce_or(builder, targets), empty)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def flips_ir(typingctx, player, opponent, move):
    """Flipped discs: fill 6 steps from the move per direction, keep runs bracketed by the mover."""
    if not _check_uint64(player, opponent, move):
        return None

    def codegen(context, builder, signature, args):
        player_bits, opponent_bits, move_bit = args
        mask = _run_masks(builder, opponent_bits)
        mover = _splat(builder, player_bits)
        origin = _splat(builder, move_bit)
        left = builder.and_(mask, builder.shl(origin, _SHIFT))
        right = builder.and_(mask, builder.lshr(origin, _SHIFT))
        for _ in range(5):  # an opponent run is at most 6 discs long
            left = builder.or_(left, builder.and_(mask, builder.shl(left, _SHIFT)))
            right = builder.or_(right, builder.and_(mask, builder.lshr(right, _SHIFT)))
        # A run flips only if the square just past its far end holds a mover's disc.
        left_closed = builder.icmp_unsigned("!=", builder.and_(builder.shl(left, _SHIFT), mover), _ZERO4)
        right_closed = builder.icmp_unsigned("!=", builder.and_(builder.lshr(right, _SHIFT), mover), _ZERO4)
        flipped = builder.or_(builder.select(left_closed, left, _ZERO4), builder.select(right_closed, right, _ZERO4))
        return _reduce_or(builder, flipped)

    return types.uint64(types.uint64, types.uint64, types.uint64), codegen


@intrinsic
def popcount_ir(typingctx, x):
    """Number of set bits (``llvm.ctpop.i64``), returned as int64."""
    if not _check_uint64(x):
        return None

    def codegen(context, builder, signature, args):
        fn = _declare(builder, "llvm.ctpop.i64", ir.FunctionType(_I64, [_I64]))
        return builder.call(fn, [args[0]])

    return types.int64(types.uint64), codegen
