#pragma once
// An audio file decoded and analysed at one frame rate: what `simulate
// --audio`, the editor's file playback and the export read. Frame k is the
// analysis of the window ending at k / frameRate seconds (AudioAnalyzer::
// analyzeFrame), so every reader sees the same frame at the same time.
#include <filesystem>
#include <vector>

#include "audio/audio_analyzer.hpp"
#include "cli/audio_decode.hpp"

namespace mirofish::cli {

struct AnalysedTrack {
    MonoAudio audio;
    std::vector<AudioFeatures> frames;
    // The first frames as heard from a loop's second lap on (analyzeLapStart),
    // for playback that loops (the editor's); empty where not analysed.
    std::vector<AudioFeatures> lapStart;
    double frameRate = 60;
    std::vector<BandRange> bandRanges;  // the log-spaced bands, for labels
};

// Throws AudioFileError (missing, empty, corrupt, no ffmpeg) or
// DecodeCancelled. progress.report sees the decoding as the first half and
// the analysis as the second.
// config.frameRate is the frame rate; its sampleRate is the decoder's.
// `ffmpeg`: the program for other kinds than WAV (decodeAudioFile).
// `silenceAfterSeconds`: the frames go on past the file's end that long,
// hearing silence.
AnalysedTrack analyseAudioFile(const std::filesystem::path& file, AudioAnalyzerConfig config,
                               const DecodeProgress& progress = {}, const std::string& ffmpeg = {},
                               double silenceAfterSeconds = 0);

}  // namespace mirofish::cli
