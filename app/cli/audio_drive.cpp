#include "cli/audio_drive.hpp"

#include <algorithm>

#include "cli/audio_track.hpp"

namespace mirofish::cli {

Params AudioDrive::paramsAt(std::uint64_t frame) {
    if (frames.empty()) return base;
    // From the last frame on, silence is heard as it is there (its onset
    // envelope, read again at the same time, stays as it is).
    const AudioFeatures& heard = frames[std::min<std::uint64_t>(frame, frames.size() - 1)];
    return matrix.apply(base, heard, onset_.update(heard));
}

void AudioDrive::skipTo(std::uint64_t frame) {
    for (std::uint64_t k = 0; k < std::min<std::uint64_t>(frame, frames.size()); ++k) onset_.update(frames[k]);
}

AudioDrive analyseAudioDrive(const std::string& file, const Preset& preset, const Params& base, double frameRate,
                             const std::string& ffmpeg, const DecodeProgress& progress) {
    AudioAnalyzerConfig config;
    config.frameRate = frameRate;
    // Past the file's end the frames hear silence until the analysis has
    // forgotten the file: its longest memory, the tempo's, then holds
    // silence alone, and every later frame would be the last one.
    const double settle = std::max(config.tempoWindowSeconds, config.gainWindowSeconds) + 1.0;
    AnalysedTrack track = analyseAudioFile(file, config, progress, ffmpeg, settle);
    AudioDrive drive;
    drive.frames = std::move(track.frames);
    drive.matrix = presetAudioRoutes(preset);
    drive.base = base;
    drive.frameRate = frameRate;
    drive.durationSeconds = track.audio.seconds();
    drive.channels = track.audio.channels;
    drive.warning = track.audio.warning;
    return drive;
}

}  // namespace mirofish::cli
