#pragma once
// Audio driving the parameters: a whole file analysed at a chosen frame rate
// (frame k hears the audio ending at k / frameRate s) and the preset's routes
// (the articles' three when it has none) that turn each frame into parameters.
// `simulate --audio` uses it at the simulation's 60 steps per second, `render
// --audio` and the export at the video's frame rate.
#include <string>
#include <vector>

#include "audio/audio_analyzer.hpp"
#include "audio/modulation.hpp"
#include "cli/audio_decode.hpp"
#include "io/preset.hpp"

namespace mirofish::cli {

struct AudioDrive {
    // The file's frames, then silence until the analysis holds still.
    std::vector<AudioFeatures> frames;
    ModulationMatrix matrix;
    Params base;
    double frameRate = 60;
    double durationSeconds = 0;  // of the file
    int channels = 1;            // of the file's first audio stream
    std::string warning;         // MonoAudio::warning: only part of the file could be read

    // The parameters for frame k, called with k = 0, 1, 2... in order (the
    // onset envelope follows the frames). Past the file's end, what silence
    // gives them, as the video's sound is silence there: they jumped back to
    // the base in one frame.
    Params paramsAt(std::uint64_t frame);
    // Instead of the calls for frames 0 .. frame - 1: the onset envelope as
    // they would leave it (a run resumed at that frame).
    void skipTo(std::uint64_t frame);

private:
    OnsetEnvelope onset_;
};

// Throws AudioFileError (missing, empty, corrupt file, or no ffmpeg for it),
// and DecodeCancelled once `progress.cancelled` says so.
// `ffmpeg`: the program for other kinds than WAV (decodeAudioFile).
AudioDrive analyseAudioDrive(const std::string& file, const Preset& preset, const Params& base, double frameRate,
                             const std::string& ffmpeg = {}, const DecodeProgress& progress = {});

}  // namespace mirofish::cli
