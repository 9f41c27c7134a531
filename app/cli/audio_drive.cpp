#include "cli/audio_drive.hpp"

#include "cli/audio_decode.hpp"

namespace mirofish::cli {

Params AudioDrive::paramsAt(std::uint64_t frame) {
    if (frame >= frames.size()) return base;
    return matrix.apply(base, frames[frame], onset_.update(frames[frame]));
}

AudioDrive analyseAudioDrive(const std::string& file, const Preset& preset, const Params& base, double frameRate) {
    const MonoAudio audio = decodeAudioFile(file);
    AudioAnalyzerConfig config;
    config.sampleRate = audio.sampleRate;
    config.frameRate = frameRate;
    AudioAnalyzer analyzer(config);
    AudioDrive drive;
    drive.frames = analyzer.analyzeAll(audio.samples, config.frameRate);
    drive.matrix.routes = preset.routes.empty() ? defaultRoutes().routes : preset.routes;
    drive.base = base;
    drive.frameRate = frameRate;
    drive.durationSeconds = audio.seconds();
    return drive;
}

}  // namespace mirofish::cli
