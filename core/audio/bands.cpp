#include "audio/bands.hpp"

#include "audio/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace mirofish {

std::vector<BandRange> logSpacedBands(std::size_t count, double lowHz, double highHz) {
    if (count == 0 || !(lowHz > 0) || !(highHz > lowHz))
        throw std::invalid_argument("bands: need at least one band and 0 < low < high");
    std::vector<BandRange> bands(count);
    const double ratio = highHz / lowHz;
    for (std::size_t i = 0; i < count; ++i) {
        const double n = static_cast<double>(count);
        bands[i].lowHz = lowHz * std::pow(ratio, static_cast<double>(i) / n);
        bands[i].highHz = i + 1 == count ? highHz : lowHz * std::pow(ratio, static_cast<double>(i + 1) / n);
    }
    return bands;
}

BandBins::BandBins(std::span<const BandRange> bands, std::size_t fftSize, double sampleRate) {
    const double binHz = sampleRate / static_cast<double>(fftSize);
    const std::size_t lastBin = fftSize / 2;  // Nyquist
    for (const BandRange& b : bands) {
        // Bins k with lowHz <= k*binHz < highHz, were there bins past Nyquist.
        auto firstAtOrAbove = [&](double hz) { return std::max(std::ceil(hz / binHz), 0.0); };
        const double spanFirst = firstAtOrAbove(b.lowHz), spanEnd = firstAtOrAbove(b.highHz);
        const auto clamped = [&](double k) { return static_cast<std::size_t>(std::min(k, static_cast<double>(lastBin + 1))); };
        std::size_t first = clamped(spanFirst), end = clamped(spanEnd);
        double width = spanEnd - spanFirst;
        if (first > lastBin) {
            first = end = lastBin + 1;  // wholly above Nyquist: silence
            width = std::max(width, 1.0);
        } else if (first >= end) {
            const double centre = std::sqrt(std::max(b.lowHz, 1e-9) * std::max(b.highHz, 1e-9));
            const double k = std::round(centre / binHz);
            first = std::clamp(static_cast<std::size_t>(std::max(k, 1.0)), std::size_t{1}, lastBin);
            end = first + 1;
            width = 1;
        }
        first_.push_back(first);
        end_.push_back(end);
        width_.push_back(width);
    }
}

double BandBins::sumPower(std::span<const float> power, std::size_t band) const {
    double sum = 0;
    for (std::size_t k = first_[band]; k < end_[band]; ++k) sum += power[k];
    return sum;
}

void BandBins::meanDb(std::span<const float> power, std::span<float> out) const {
    for (std::size_t b = 0; b < size(); ++b)
        out[b] = powerToDb(sumPower(power, b) / width_[b]);
}

}  // namespace mirofish
