#pragma once
// Coherent noise that reads as water currents: a 2D vector field, smooth in
// space and in time (value noise with smoothstep interpolation on a periodic
// lattice). The lattice for the current time is refreshed once per step, so
// sampling it per fish is four table reads and a blend, not a hash per fish.
#include <cstdint>
#include <cstring>
#include <vector>

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
    T c0 = fx - floorOf(fx / fc) * fc;
    T r0 = fy - floorOf(fy / fr) * fr;
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

    // Sets the lattice to the field at time t (seconds), with currents that
    // change over timeScale seconds.
    void update(std::uint64_t seed, double t, float timeScale);

    // Field value at a point: each component in about [-1, 1].
    Vec2 sample(float x, float y) const;
    // The same for eight points at once (bit-identical to sample()).
    VecLanes<2> sample(v8f x, v8f y) const;

    static constexpr std::size_t kMaxPoints = 1u << 18;

private:
    int cols_ = 1;
    int rows_ = 1;
    float invCellW_ = 1.0f;
    float invCellH_ = 1.0f;
    std::vector<Vec2> lattice_;
};

// Inline, so the kernel's AVX2 build compiles it with AVX2 too.
[[gnu::always_inline]] inline VecLanes<2> NoiseField::sample(v8f x, v8f y) const {
    const noise_detail::LatticePoint<v8f> q = noise_detail::locate(x, y, invCellW_, invCellH_, cols_, rows_);
    // The four corners' indices for all lanes at once, then gathered lane by lane.
    const v8i c0 = __builtin_convertvector(q.c0, v8i), r0 = __builtin_convertvector(q.r0, v8i);
    const v8i c1 = (c0 + 1 == cols_) ? v8i{} : c0 + 1;
    const v8i row0 = r0 * cols_, row1 = ((r0 + 1 == rows_) ? v8i{} : r0 + 1) * cols_;
    const v8i i00 = row0 + c0, i10 = row0 + c1, i01 = row1 + c0, i11 = row1 + c1;
    const Vec2* lattice = lattice_.data();
    // A lattice point's two floats are read as one 64-bit value, and the
    // eight pairs then split into the x and the y lanes.
    static_assert(sizeof(Vec2) == 2 * sizeof(float));
    const auto corner = [lattice](v8i i) {
        using v4d = double __attribute__((vector_size(32)));
        const auto pair = [lattice](std::int32_t k) {
            double d;
            std::memcpy(&d, &lattice[k], sizeof d);
            return d;
        };
        const v8f lo = (v8f)v4d{pair(i[0]), pair(i[1]), pair(i[2]), pair(i[3])};
        const v8f hi = (v8f)v4d{pair(i[4]), pair(i[5]), pair(i[6]), pair(i[7])};
        return VecLanes<2>{{__builtin_shufflevector(lo, hi, 0, 2, 4, 6, 8, 10, 12, 14),
                            __builtin_shufflevector(lo, hi, 1, 3, 5, 7, 9, 11, 13, 15)}};
    };
    const VecLanes<2> c00 = corner(i00), c10 = corner(i10), c01 = corner(i01), c11 = corner(i11);
    const VecLanes<2> top = c00 + (c10 - c00) * q.tx;
    const VecLanes<2> bottom = c01 + (c11 - c01) * q.tx;
    return top + (bottom - top) * q.ty;
}

}  // namespace mirofish
