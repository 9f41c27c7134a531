#pragma once
// Live input: samples arrive in chunks of any size (whatever the capture
// device delivers); the analysis runs once per hop, exactly as the offline
// analysis of the same stream would: frame k analyses the windowSamples()
// ending at sample round(k * sampleRate / frameRate) of the stream (frame 0
// the silence before it), after the sub-frames before it where a frame has
// several (AudioAnalyzer::subFrames). Chunking never changes the result.
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
    std::uint64_t subFrameEnd(std::uint64_t subFrame) const;
    void analyzeDueSubFrame(std::vector<AudioFeatures>& frames);

    AudioAnalyzer analyzer_;
    std::vector<float> history_;  // the stream's newest samples (at least windowSamples() once warm)
    std::uint64_t seen_ = 0;
    std::uint64_t nextSubFrame_ = 0;
    bool onsetSinceFrame_ = false;  // in a sub-frame since the last frame
};

}  // namespace mirofish
