#pragma once
// A sum whose value does not depend on the order of its terms, so that the
// partial sums of a parallel-for's threads can be merged in whatever order the
// threads finish and the total is the same on any number of threads. Each term
// is cut once to a whole number of 2^-32 (exactly, for terms from 2^-9 up to
// the float range the kernel's sums reach) and the whole numbers are added
// exactly, in 128 bits. Terms that are not finite make the sum NaN or
// infinite, as a float sum would.
#include <cmath>
#include <cstdint>
#include <limits>

namespace mirofish {

class ExactSum {
public:
    void add(double x) {
        if (std::isnan(x)) {
            nan_ = true;
        } else if (std::isinf(x)) {
            (x > 0 ? positiveInfinity_ : negativeInfinity_) = true;
        } else {
            // Terms beyond 2^80 (never met: the kernel's forces are clamped far
            // below) are cut to it, so that no sum of 2^40 of them overflows.
            constexpr double kLargest = 0x1p80;
            const double bounded = x > kLargest ? kLargest : (x < -kLargest ? -kLargest : x);
            fixed_ += static_cast<Fixed>(bounded * 0x1p32);  // toward zero
        }
    }
    void add(const ExactSum& other) {
        fixed_ += other.fixed_;
        nan_ = nan_ || other.nan_;
        positiveInfinity_ = positiveInfinity_ || other.positiveInfinity_;
        negativeInfinity_ = negativeInfinity_ || other.negativeInfinity_;
    }
    double value() const {
        constexpr double inf = std::numeric_limits<double>::infinity();
        if (nan_ || (positiveInfinity_ && negativeInfinity_)) return std::numeric_limits<double>::quiet_NaN();
        if (positiveInfinity_) return inf;
        if (negativeInfinity_) return -inf;
        return static_cast<double>(fixed_) * 0x1p-32;
    }

private:
    __extension__ typedef __int128 Fixed;
    Fixed fixed_ = 0;
    bool nan_ = false, positiveInfinity_ = false, negativeInfinity_ = false;
};

}  // namespace mirofish
