#pragma once
// Live input: samples arrive in chunks of any size (whatever the capture
// device delivers); the analysis runs once per hop, exactly as the offline
// analysis of the same stream would: frame k analyses the fftSize samples
// ending at sample round(k * sampleRate / frameRate) of the stream (frame 0
// the silence before it). Chunking never changes the result.
#include <cstdint>
#include <span>
#include <vector>

#include "audio/audio_analyzer.hpp"

namespace mirofish {

class LiveAnalyzer {
public:
    explicit LiveAnalyzer(const AudioAnalyzerConfig& config = {});

    // Appends `samples` to the stream and appends to `frames` every frame
    // whose window is now complete (none, one or several).
    void push(std::span<const float> samples, std::vector<AudioFeatures>& frames);
    // Starts a new stream (a new device, a restart).
    void reset();
    std::uint64_t samplesSeen() const { return seen_; }
    const AudioAnalyzer& analyzer() const { return analyzer_; }

private:
    std::uint64_t frameEnd(std::uint64_t frame) const;
    void analyzeDueFrame(std::vector<AudioFeatures>& frames);

    AudioAnalyzer analyzer_;
    std::vector<float> history_;  // the stream's newest samples (at least fftSize of them once warm)
    std::uint64_t seen_ = 0;
    std::uint64_t nextFrame_ = 0;
};

}  // namespace mirofish
