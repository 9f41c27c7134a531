#include "cli/audio_drive.hpp"

#include <algorithm>

#include "cli/audio_track.hpp"

namespace mirofish::cli {

Params AudioDrive::paramsAt(std::uint64_t frame) {
    if (frame >= frames.size()) return base;
    return matrix.apply(base, frames[frame], onset_.update(frames[frame]));
}

void AudioDrive::skipTo(std::uint64_t frame) {
    for (std::uint64_t k = 0; k < std::min<std::uint64_t>(frame, frames.size()); ++k) onset_.update(frames[k]);
}

AudioDrive analyseAudioDrive(const std::string& file, const Preset& preset, const Params& base, double frameRate,
                             const std::string& ffmpeg, const DecodeProgress& progress) {
    AudioAnalyzerConfig config;
    config.frameRate = frameRate;
    AnalysedTrack track = analyseAudioFile(file, config, progress, ffmpeg);
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
