#include "cli/audio_drive.hpp"

#include "cli/audio_track.hpp"

namespace mirofish::cli {

Params AudioDrive::paramsAt(std::uint64_t frame) {
    if (frame >= frames.size()) return base;
    return matrix.apply(base, frames[frame], onset_.update(frames[frame]));
}

AudioDrive analyseAudioDrive(const std::string& file, const Preset& preset, const Params& base, double frameRate) {
    AudioAnalyzerConfig config;
    config.frameRate = frameRate;
    AnalysedTrack track = analyseAudioFile(file, config);
    AudioDrive drive;
    drive.frames = std::move(track.frames);
    drive.matrix = presetAudioRoutes(preset);
    drive.base = base;
    drive.frameRate = frameRate;
    drive.durationSeconds = track.audio.seconds();
    drive.warning = track.audio.warning;
    return drive;
}

}  // namespace mirofish::cli
