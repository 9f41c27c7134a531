#include "audio/onset_detector.hpp"

#include "audio/spectrum.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

OnsetDetector::OnsetDetector(const OnsetConfig& config, std::size_t firstBin, std::size_t endBin, std::size_t lowEndBin)
    : config_(config),
      firstBin_(firstBin),
      endBin_(std::max(endBin, firstBin)),
      lowEnd_(std::clamp(lowEndBin, firstBin, std::max(endBin, firstBin))),
      minInterval_(std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(config.minIntervalSeconds * config.frameRate - 1e-9)))),
      previousDb_(endBin_ - firstBin_),
      history_(std::max<std::size_t>(2, static_cast<std::size_t>(std::lround(config.historySeconds * config.frameRate)))) {
    double sum = 0;
    for (std::size_t k = firstBin_; k < endBin_; ++k) sum += 1.0 / static_cast<double>(std::max<std::size_t>(k, 1));
    for (std::size_t k = firstBin_; k < endBin_; ++k)
        weight_.push_back(static_cast<float>(1.0 / static_cast<double>(std::max<std::size_t>(k, 1)) / sum));
    reset();
}

void OnsetDetector::reset() {
    std::fill(previousDb_.begin(), previousDb_.end(), config_.floorDb);
    std::fill(history_.begin(), history_.end(), 0.0f);
    next_ = filled_ = 0;
    sinceOnset_ = minInterval_;
    flux_ = previousFlux_ = threshold_ = lowFlux_ = 0;
}

bool OnsetDetector::update(std::span<const float> power) {
    double rise = 0;
    for (std::size_t k = firstBin_; k < endBin_; ++k) {
        if (k == lowEnd_) lowFlux_ = static_cast<float>(rise);
        const float db = powerToDb(power[k], config_.floorDb);
        float& prev = previousDb_[k - firstBin_];
        if (db > prev) rise += weight_[k - firstBin_] * (db - prev);
        prev = db;
    }
    previousFlux_ = flux_;
    if (lowEnd_ >= endBin_) lowFlux_ = static_cast<float>(rise);
    flux_ = static_cast<float>(rise);

    // Threshold from the flux before this frame.
    double mean = 0, var = 0;
    if (filled_ > 0) {
        for (std::size_t i = 0; i < filled_; ++i) mean += history_[i];
        mean /= static_cast<double>(filled_);
        for (std::size_t i = 0; i < filled_; ++i) var += (history_[i] - mean) * (history_[i] - mean);
        var /= static_cast<double>(filled_);
    }
    threshold_ = static_cast<float>(mean + config_.thresholdK * std::sqrt(var)) + config_.minFlux;

    history_[next_] = flux_;
    next_ = next_ + 1 == history_.size() ? 0 : next_ + 1;
    filled_ = std::min(filled_ + 1, history_.size());

    // A rising flux above the threshold, outside the refractory time.
    const bool onset = flux_ > threshold_ && flux_ > previousFlux_ && sinceOnset_ >= minInterval_;
    sinceOnset_ = onset ? 1 : sinceOnset_ + 1;
    return onset;
}

}  // namespace mirofish
