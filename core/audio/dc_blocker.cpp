#include "audio/dc_blocker.hpp"

#include <cmath>
#include <numbers>

namespace mirofish {

float dcBlockerPole(double cutoffHz, double sampleRate) {
    return static_cast<float>(std::exp(-2.0 * std::numbers::pi * cutoffHz / sampleRate));
}

void blockDc(std::span<const float> in, std::span<float> out, float pole) {
    const auto finite = [](float x) { return std::isfinite(x) ? x : 0.0f; };
    if (in.empty()) return;
    float previous = finite(in[0]);
    // In double: r is within a thousandth of 1, and y carries the sum of
    // many small steps.
    double y = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const float x = finite(in[i]);
        y = static_cast<double>(x) - static_cast<double>(previous) + static_cast<double>(pole) * y;
        previous = x;
        out[i] = static_cast<float>(y);
    }
}

}  // namespace mirofish
