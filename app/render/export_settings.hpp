#pragma once
// What an export makes: the scene, the frames, and where they go. The
// export dialog and `mirofish render` fill the same struct.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include "io/preset.hpp"

namespace mirofish::render {

// A problem the user can fix (bad output, missing ffmpeg, full disk...),
// with a sentence that names it.
struct ExportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class OutputKind { PngSequence, Mp4, ProRes };

// The best MP4 quality offered. CRF 0 is x264's lossless mode, which needs the
// High 4:4:4 Predictive profile: QuickTime, browsers and hardware decoders do
// not open it. 1 is visually lossless and stays in the High profile.
inline constexpr int kBestCrf = 1;

struct ExportSettings {
    Preset preset;                   // fish count, seed and world as they will run
    int width = 1920, height = 1080;
    bool fitWorld = false;           // the world takes the frame's shape (same area); else it is letterboxed
    double fps = 30;
    std::uint64_t frames = 0;        // 0 with an audio file: the audio's length
    double warmupSeconds = 0;        // simulated (and, with trails, drawn) before frame 0
    std::string audioFile;           // empty: none; else it drives the routes and is muxed in
    std::optional<bool> trails;      // overrides the preset's `trails` parameter
    std::filesystem::path output;    // a folder (PNG sequence) or FILE.mp4 / FILE.mov
    bool alpha = false;              // PNG and MOV: transparent background
    int crf = 18;                    // MP4 quality: H.264 constant rate factor, kBestCrf to 51
    int pngCompression = 1;          // zlib level, 0 (fastest, largest) to 9
    std::string ffmpeg;              // the ffmpeg program; empty: $MIROFISH_FFMPEG, else "ffmpeg"
    int threads = 0;                 // simulation threads; 0: all cores

    OutputKind kind() const;
};

// What an export stopped before its end leaves behind (the sinks' rule:
// only complete files): the PNG frames written so far, or no video.
std::string stoppedOutputNote(const ExportSettings& settings, std::uint64_t framesWritten);

// The program an export runs for MP4 and MOV.
std::string ffmpegProgram(const ExportSettings& settings);
// Its full path, or empty when it cannot be found or run.
std::string findProgram(const std::string& program);

}  // namespace mirofish::render
