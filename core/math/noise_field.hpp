#pragma once
// Coherent noise that reads as water currents: a 2D vector field, smooth in
// space and in time (value noise with smoothstep interpolation on a periodic
// lattice). The lattice for the current time is refreshed once per step, so
// sampling it per fish is four table reads and a blend, not a hash per fish.
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "math/vec.hpp"

namespace mirofish {

namespace noise_detail {

template <typename T>
[[gnu::always_inline]] inline T smoothstep(T t) {
    return t * t * (3.0f - 2.0f * t);
}

// Position on the periodic lattice, split into cell indices and smoothstep
// weights; written once for one point (T = float) and eight (T = v8f).
// Positions outside the world (soft boundary, up to a margin away) wrap; the
// floor-based wrap needs no integer division on this per-fish path.
template <typename T>
struct LatticePoint {
    T c0, r0, tx, ty;  // cell indices as floats, weights
};

template <typename T>
[[gnu::always_inline]] inline LatticePoint<T> locate(T x, T y, float invCellW, float invCellH, int cols, int rows) {
    // Far-away or non-finite positions are no meaningful place to sample;
    // pin them to the origin rather than overflow the index arithmetic.
    const auto sane = maskAnd(absOf(x * invCellW) < 1e6f, absOf(y * invCellH) < 1e6f);
    const T gx = select(sane, x * invCellW, T{});
    const T gy = select(sane, y * invCellH, T{});
    const T fx = floorOf(gx), fy = floorOf(gy);
    const float fc = static_cast<float>(cols), fr = static_cast<float>(rows);
    // fx modulo fc: whole floats below 2^20 in size, so every step is exact
    // (fx / fc rounded never lands on the next whole number), and a quotient
    // from the reciprocal, off by one at most, is put right by one addition
    // or subtraction: the values of floor(fx / fc) without a division.
    // With floorOf in one instruction in sixteen lanes (math/lanes.hpp),
    // lock-step on 1 thread (Intel Xeon, 2026-12-04): 0.989 and 0.990 of the
    // time at the bench's constant density, 0.995 for article 000.
    const auto wrapped = [](T f, float n) {
        const T r = f - floorOf(f * (1.0f / n)) * n;
        const T up = select(r < 0.0f, r + n, r);
        return select(up >= n, up - n, up);
    };
    T c0 = wrapped(fx, fc);
    T r0 = wrapped(fy, fr);
    c0 = select(c0 < fc, c0, T{});
    r0 = select(r0 < fr, r0, T{});
    return {c0, r0, smoothstep(gx - fx), smoothstep(gy - fy)};
}
}  // namespace noise_detail


class NoiseField {
public:
    // Allocates the lattice for a world up to this size and spacing. The
    // lattice never holds more than kMaxPoints points: larger worlds get a
    // proportionally coarser lattice.
    void configure(float worldWidth, float worldHeight, float spacing);

    // Sets the lattice to the field at `ticks`, the time counted in units of
    // the currents' time scale: a blend of the lattices of the two whole
    // ticks around it, which are hashed only when it enters another tick.
    // The simulation counts the ticks step by step (each step adds its
    // length over the time scale), so that a change of the time scale goes
    // on from the currents as they are instead of jumping to t / newScale.
    void update(std::uint64_t seed, double ticks);

    // Field value at a point: each component in about [-1, 1].
    Vec2 sample(float x, float y) const;
    // The same for eight points at once (bit-identical to sample()).
    VecLanes<2> sample(v8f x, v8f y) const;
    // Sixteen points (bit-identical to sample() too): two groups of eight,
    // or, with AVX-512, at once where they lie close together (sampleNearby).
    [[gnu::always_inline]] Vec<2, v16f> sample(v16f x, v16f y) const {
#ifdef __AVX512F__
        if (const auto near = sampleNearby(x, y)) return *near;
#endif
        const VecLanes<2> lo = sample(lowHalf(x), lowHalf(y)), hi = sample(highHalf(x), highHalf(y));
        return {{joined(lo[0], hi[0]), joined(lo[1], hi[1])}};
    }

    static constexpr std::size_t kMaxPoints = 1u << 18;

private:
    int cols_ = 1;
    int rows_ = 1;
    float invCellW_ = 1.0f;
    float invCellH_ = 1.0f;
    // Row by row, each row followed by a copy of its column 0, and the rows
    // followed by a copy of row 0: the four corners around any point are then
    // two pairs of neighbours (the field is periodic).
    std::vector<Vec2> lattice_;
    // The lattices of the ticks before and after the last update's time
    // (laid out as lattice_), for that seed. Hashing every point anew each
    // step took 212 us a step at 1 000 000 fish (18 000 points), on one
    // thread while the others waited; the blend alone takes 7 us.
    std::vector<Vec2> tickBefore_, tickAfter_;
    std::uint64_t ticksSeed_ = 0;
    std::int64_t tickBeforeIndex_ = 0;
    bool ticksKnown_ = false;
    std::size_t pointIndex(int c, int r) const { return static_cast<std::size_t>(r * (cols_ + 1) + c); }
#ifdef __AVX512F__
    std::optional<Vec<2, v16f>> sampleNearby(v16f x, v16f y) const;
#endif
    void hashTick(std::vector<Vec2>& into, std::uint64_t seed, std::int64_t tick) const;
};

// Inline, so the kernel's AVX2 build compiles it with AVX2 too.
[[gnu::always_inline]] inline VecLanes<2> NoiseField::sample(v8f x, v8f y) const {
    const noise_detail::LatticePoint<v8f> q = noise_detail::locate(x, y, invCellW_, invCellH_, cols_, rows_);
    const int stride = cols_ + 1;
    // Each lane's first float, unsigned, so that the 64-bit address needs no
    // sign extension per lane.
    const v8u at = (v8u)(__builtin_convertvector(q.r0, v8i) * stride + __builtin_convertvector(q.c0, v8i)) * 2u;
    // Per lane, the top corners (x00 y00 x10 y10) in one 16-byte load, and
    // the bottom ones (x01 y01 x11 y11) one row further: the padding makes
    // both corners of a row neighbours, at the seam too.
    static_assert(sizeof(Vec2) == 2 * sizeof(float));
    const float* lattice = lattice_[0].c.data();
    const auto corners = [&](int lane, const float* row) {
        v4f v;
        std::memcpy(&v, row + at[lane], sizeof v);
        return v;
    };
    // Four lanes' corners in a row, transposed into one vector per corner
    // coordinate: lanes k and k + 4 share a register, then a 4x4 transpose
    // within each half.
    const auto transpose = [&](const float* row) {
        v4f c[kLanes];
        for (int l = 0; l < kLanes; ++l) c[l] = corners(l, row);
        const auto join = [](v4f a, v4f b) { return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7); };
        const v8f t0 = join(c[0], c[4]), t1 = join(c[1], c[5]), t2 = join(c[2], c[6]), t3 = join(c[3], c[7]);
        const v8f a = __builtin_shufflevector(t0, t1, 0, 8, 1, 9, 4, 12, 5, 13);   // x0 of lanes 0 1, y0 of 0 1
        const v8f b = __builtin_shufflevector(t2, t3, 0, 8, 1, 9, 4, 12, 5, 13);   // the same of lanes 2 3
        const v8f e = __builtin_shufflevector(t0, t1, 2, 10, 3, 11, 6, 14, 7, 15);  // x1 and y1 of lanes 0 1
        const v8f d = __builtin_shufflevector(t2, t3, 2, 10, 3, 11, 6, 14, 7, 15);  // the same of lanes 2 3
        const auto low = [](v8f u, v8f w) { return __builtin_shufflevector(u, w, 0, 1, 8, 9, 4, 5, 12, 13); };
        const auto high = [](v8f u, v8f w) { return __builtin_shufflevector(u, w, 2, 3, 10, 11, 6, 7, 14, 15); };
        // The left and the right corner.
        return std::pair{VecLanes<2>{{low(a, b), high(a, b)}}, VecLanes<2>{{low(e, d), high(e, d)}}};
    };
    const auto [c00, c10] = transpose(lattice);
    const auto [c01, c11] = transpose(lattice + 2 * stride);
    const VecLanes<2> top = c00 + (c10 - c00) * q.tx;
    const VecLanes<2> bottom = c01 + (c11 - c01) * q.tx;
    return top + (bottom - top) * q.ty;
}

#ifdef __AVX512F__
namespace noise_detail {
// v's lanes picked by index (vpermps). GCC 12 warns that the intrinsic's
// unused merge operand "may be used uninitialized"; its vector shuffle is
// the same instruction. Clang has no such shuffle, and no such warning.
[[gnu::always_inline]] inline v16f permuteLanes(v16f v, v16i index) {
#ifdef __clang__
    return (v16f)_mm512_permutexvar_ps((__m512i)index, (__m512)v);
#else
    return __builtin_shuffle(v, index);
#endif
}
}  // namespace noise_detail

// Sixteen points whose cells lie within three columns and three rows of
// cells: the sixteen lattice points around those cells held in two
// registers (x and y), each corner of every lane picked by one permutation
// per coordinate, where the eight-lane sample reads two corners a lane from
// memory and transposes them. The kernel's groups of sixteen fish span a few
// of the grid's cells, smaller than the lattice's (300 px by default): at
// the bench's constant density nearly every group takes this, all but those
// that run from a row's end to the next row's start or cross the world's
// edge. The values and their blend are those of sample(v8f), bit for bit.
// Lock-step on 1 thread (Intel Xeon, 2026-12-04): 0.983 and 0.986 of the
// time at the bench's constant density (50 000 fish), 0.989 for article
// 000's formed school; 0.972 at 1 000 000 fish on 2 threads.
[[gnu::always_inline]] inline std::optional<Vec<2, v16f>> NoiseField::sampleNearby(v16f x, v16f y) const {
    const noise_detail::LatticePoint<v16f> q = noise_detail::locate(x, y, invCellW_, invCellH_, cols_, rows_);
    // The block's first column and row: at most cols_ - 3 and rows_ - 3, so
    // that its four points a row and four rows stay within the lattice (whose
    // last column and row repeat the first). The cells' indices are whole
    // floats: their extremes convert exactly.
    const int c0 = std::min(static_cast<int>(minLanes(q.c0)), cols_ - 3);
    const int r0 = std::min(static_cast<int>(minLanes(q.r0)), rows_ - 3);
    if (c0 < 0 || r0 < 0 || static_cast<int>(maxLanes(q.c0)) > c0 + 2 || static_cast<int>(maxLanes(q.r0)) > r0 + 2)
        return std::nullopt;
    const float* first = lattice_[0].c.data() + 2 * pointIndex(c0, r0);
    const std::size_t row = 2 * static_cast<std::size_t>(cols_ + 1);
    // Rows of x0 y0 x1 y1 x2 y2 x3 y3, two to a register, then the x and the
    // y of the block's points, row by row.
    const v16f rows01 = joined(loadLanes<v8f>(first), loadLanes<v8f>(first + row));
    const v16f rows23 = joined(loadLanes<v8f>(first + 2 * row), loadLanes<v8f>(first + 3 * row));
    const v16f bx = __builtin_shufflevector(rows01, rows23, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const v16f by = __builtin_shufflevector(rows01, rows23, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    // Each lane's top-left corner in the block; the others one column and one
    // row further.
    const v16i at = (__builtin_convertvector(q.r0, v16i) - r0) * 4 + (__builtin_convertvector(q.c0, v16i) - c0);
    const auto corner = [&](int offset) {
        const v16i i = at + offset;
        return Vec<2, v16f>{{noise_detail::permuteLanes(bx, i), noise_detail::permuteLanes(by, i)}};
    };
    const Vec<2, v16f> c00 = corner(0), c10 = corner(1), c01 = corner(4), c11 = corner(5);
    const Vec<2, v16f> top = c00 + (c10 - c00) * q.tx;
    const Vec<2, v16f> bottom = c01 + (c11 - c01) * q.tx;
    return top + (bottom - top) * q.ty;
}
#endif

}  // namespace mirofish
