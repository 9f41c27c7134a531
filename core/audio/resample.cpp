#include "audio/resample.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>

namespace mirofish {

namespace {
constexpr int kZeroCrossings = 32;  // of the sinc, each side, at the lower rate
constexpr int kPhases = 256;        // the kernel tabulated at this many fractional positions, interpolated between
constexpr int kLanes = 8;           // partial sums side by side, which the compiler makes one vector
// Kaiser window: beta 8.6 puts the sidelobes about 86 dB down. With 64 taps
// its transition band is about 0.085 of the lower rate, so the cutoff sits
// that half-width below Nyquist and the stopband begins at it.
constexpr double kBeta = 8.6;
constexpr double kCutoff = 0.5 - 0.085 / 2;  // cycles per sample at the lower rate

// The modified Bessel function I0, by its series (converges fast for x <= 9).
double besselI0(double x) {
    double sum = 1, term = 1;
    for (int k = 1; k < 50; ++k) {
        term *= (x / (2 * k)) * (x / (2 * k));
        sum += term;
        if (term < 1e-12 * sum) break;
    }
    return sum;
}

double sinc(double x) { return x == 0 ? 1.0 : std::sin(std::numbers::pi * x) / (std::numbers::pi * x); }
}  // namespace

std::vector<float> resample(std::span<const float> in, double from, double to,
                            const std::function<bool(double)>& keepGoing) {
    if (from == to || in.empty()) return {in.begin(), in.end()};
    const double step = from / to;                   // input samples per output sample
    const double scale = std::min(1.0, to / from);   // the cutoff shrinks when going down
    // Taps each side, in input samples, a multiple of kLanes / 2.
    const int half = (static_cast<int>(std::ceil(kZeroCrossings / scale)) + kLanes / 2 - 1) / (kLanes / 2) * (kLanes / 2);
    const int taps = 2 * half;
    const double cutoff = kCutoff * scale;
    // table[p * taps + t]: the weight of input sample base - half + 1 + t for
    // an output at input position base + p / kPhases; each phase sums to 1.
    std::vector<float> table(static_cast<std::size_t>(kPhases + 1) * static_cast<std::size_t>(taps));
    const double window0 = besselI0(kBeta);
    std::vector<double> row(static_cast<std::size_t>(taps));
    for (int p = 0; p <= kPhases; ++p) {
        double sum = 0;
        for (int t = 0; t < taps; ++t) {
            const double u = static_cast<double>(p) / kPhases + half - 1 - t;  // output position minus the input sample's
            const double v = u / half;
            const double w = std::abs(v) < 1 ? besselI0(kBeta * std::sqrt(1 - v * v)) / window0 : 0.0;
            row[static_cast<std::size_t>(t)] = 2 * cutoff * sinc(2 * cutoff * u) * w;
            sum += row[static_cast<std::size_t>(t)];
        }
        for (int t = 0; t < taps; ++t)
            table[static_cast<std::size_t>(p) * static_cast<std::size_t>(taps) + static_cast<std::size_t>(t)] =
                static_cast<float>(row[static_cast<std::size_t>(t)] / sum);
    }
    const auto n = static_cast<std::size_t>(std::floor(static_cast<double>(in.size()) * to / from));
    const auto size = static_cast<long long>(in.size());
    std::vector<float> out(n);
    constexpr std::size_t kReportEvery = 1 << 20;
    for (std::size_t i = 0; i < n; ++i) {
        if (keepGoing && i % kReportEvery == 0 && i > 0 && !keepGoing(static_cast<double>(i) / static_cast<double>(n))) {
            out.resize(i);
            break;
        }
        const double x = static_cast<double>(i) * step;
        const auto base = static_cast<long long>(std::floor(x));
        const double phase = (x - static_cast<double>(base)) * kPhases;
        const int p = std::min(static_cast<int>(phase), kPhases - 1);
        const auto a = static_cast<float>(phase - p);
        const float* lo = table.data() + static_cast<std::size_t>(p) * static_cast<std::size_t>(taps);
        const float* hi = lo + taps;
        const long long first = base - half + 1;
        // Between two tabulated phases: both rows' sums, mixed.
        float sumLo = 0, sumHi = 0;
        if (first >= 0 && first + taps <= size) {
            const float* samples = in.data() + first;
            float lanesLo[kLanes] = {}, lanesHi[kLanes] = {};
            for (int t = 0; t < taps; t += kLanes)
                for (int k = 0; k < kLanes; ++k) {
                    lanesLo[k] += lo[t + k] * samples[t + k];
                    lanesHi[k] += hi[t + k] * samples[t + k];
                }
            for (int k = 0; k < kLanes; ++k) {
                sumLo += lanesLo[k];
                sumHi += lanesHi[k];
            }
        } else {
            // Near the ends the first and last samples stand for those beyond
            // them. Zeros there made a file's DC offset ramp in and out over
            // the kernel's length, a step the analysis heard as an onset at
            // the start and at every loop seam.
            for (int t = 0; t < taps; ++t) {
                const float sample = in[static_cast<std::size_t>(std::clamp(first + t, 0LL, size - 1))];
                sumLo += lo[t] * sample;
                sumHi += hi[t] * sample;
            }
        }
        out[i] = sumLo + (sumHi - sumLo) * a;
    }
    return out;
}

}  // namespace mirofish
