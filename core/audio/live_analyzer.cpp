#include "audio/live_analyzer.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

LiveAnalyzer::LiveAnalyzer(const AudioAnalyzerConfig& config) : analyzer_(config) {
    history_.reserve(2 * config.fftSize);
}

void LiveAnalyzer::reset() {
    analyzer_.reset();
    history_.clear();
    seen_ = 0;
    nextFrame_ = 0;
}

std::uint64_t LiveAnalyzer::frameEnd(std::uint64_t frame) const {
    const AudioAnalyzerConfig& c = analyzer_.config();
    return static_cast<std::uint64_t>(std::round(static_cast<double>(frame) * c.sampleRate / c.frameRate));
}

void LiveAnalyzer::analyzeDueFrame(std::vector<AudioFeatures>& frames) {
    const std::size_t n = analyzer_.config().fftSize;
    const std::size_t take = std::min(history_.size(), n);
    // analyzeWindow pads a short window with zeros in front: the silence before the stream.
    const std::span<const float> window(history_.data() + (history_.size() - take), take);
    frames.push_back(analyzer_.analyzeWindow(window, static_cast<double>(seen_) / analyzer_.config().sampleRate));
    ++nextFrame_;
}

void LiveAnalyzer::push(std::span<const float> samples, std::vector<AudioFeatures>& frames) {
    const std::size_t n = analyzer_.config().fftSize;
    while (true) {
        while (frameEnd(nextFrame_) <= seen_) analyzeDueFrame(frames);
        if (samples.empty()) return;
        // Up to the next frame's end, so its window ends exactly there.
        const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(samples.size(), frameEnd(nextFrame_) - seen_));
        if (history_.size() + take > 2 * n) {
            const std::size_t keep = std::min(history_.size(), n);
            history_.erase(history_.begin(), history_.end() - static_cast<std::ptrdiff_t>(keep));
        }
        history_.insert(history_.end(), samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(take));
        seen_ += take;
        samples = samples.subspan(take);
    }
}

}  // namespace mirofish
