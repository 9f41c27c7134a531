#include "cli/audio_track.hpp"

#include <cmath>

namespace mirofish::cli {

AnalysedTrack analyseAudioFile(const std::filesystem::path& file, AudioAnalyzerConfig config,
                               const DecodeProgress& progress, const std::string& ffmpeg,
                               double silenceAfterSeconds) {
    DecodeProgress decoding = progress;
    if (progress.report) decoding.report = [&](double f) { progress.report(0.5 * f); };
    AnalysedTrack track;
    track.audio = decodeAudioFile(file, kAnalysisSampleRate, decoding, kLongestAudioSeconds, ffmpeg);
    track.frameRate = config.frameRate;
    config.sampleRate = track.audio.sampleRate;
    AudioAnalyzer analyzer(config);
    track.bandRanges.assign(analyzer.bandRanges().begin(), analyzer.bandRanges().end());
    // A frame whose window reaches past the end reads silence there.
    const std::size_t count =
        AudioAnalyzer::frameCount(track.audio.samples.size(), config.sampleRate, config.frameRate) +
        static_cast<std::size_t>(std::ceil(silenceAfterSeconds * config.frameRate));
    track.frames.reserve(count);
    // Frame by frame (as analyzeAll does) so that a long file reports progress and can be cancelled.
    constexpr std::size_t kReportEvery = 256;
    for (std::size_t k = 0; k < count; ++k) {
        if (k % kReportEvery == 0) {
            if (progress.cancelled && progress.cancelled()) throw DecodeCancelled(file.string() + ": analysis cancelled");
            if (progress.report) progress.report(0.5 + 0.5 * static_cast<double>(k) / static_cast<double>(count));
        }
        track.frames.push_back(analyzer.analyzeFrame(track.audio.samples, k));
    }
    if (progress.report) progress.report(1.0);
    return track;
}

}  // namespace mirofish::cli
