#include "audio/live_analyzer.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

LiveAnalyzer::LiveAnalyzer(const AudioAnalyzerConfig& config) : analyzer_(config) {
    history_.reserve(2 * analyzer_.windowSamples());
}

void LiveAnalyzer::reset() {
    analyzer_.reset();
    history_.clear();
    seen_ = 0;
    nextSubFrame_ = 0;
    onsetSinceFrame_ = false;
}

std::uint64_t LiveAnalyzer::subFrameEnd(std::uint64_t subFrame) const {
    const AudioAnalyzerConfig& c = analyzer_.config();
    // As AudioAnalyzer::analyzeFrame rounds it, to the same sample.
    const double rate = c.frameRate * static_cast<double>(analyzer_.subFrames());
    return static_cast<std::uint64_t>(std::round(static_cast<double>(subFrame) * c.sampleRate / rate));
}

void LiveAnalyzer::analyzeDueSubFrame(std::vector<AudioFeatures>& frames) {
    const std::size_t n = analyzer_.windowSamples();
    const std::size_t take = std::min(history_.size(), n);
    // A short window follows silence, as analyzeFrame's before a track.
    const std::span<const float> window(history_.data() + (history_.size() - take), take);
    AudioFeatures f = analyzer_.analyzeWindow(window, static_cast<double>(seen_) / analyzer_.config().sampleRate);
    onsetSinceFrame_ = onsetSinceFrame_ || f.onset;
    // A frame ends on every subFrames()-th sub-frame, its onset any of theirs.
    if (nextSubFrame_ % analyzer_.subFrames() == 0) {
        f.onset = onsetSinceFrame_;
        onsetSinceFrame_ = false;
        frames.push_back(f);
    }
    ++nextSubFrame_;
}

void LiveAnalyzer::push(std::span<const float> samples, std::vector<AudioFeatures>& frames) {
    const std::size_t n = analyzer_.windowSamples();
    while (true) {
        while (subFrameEnd(nextSubFrame_) <= seen_) analyzeDueSubFrame(frames);
        if (samples.empty()) return;
        // Up to the next sub-frame's end, so its window ends exactly there.
        const auto take =
            static_cast<std::size_t>(std::min<std::uint64_t>(samples.size(), subFrameEnd(nextSubFrame_) - seen_));
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
