#pragma once
// Any audio file to mono float samples at one rate: WAV is read natively;
// flac, mp3, ogg and the rest go through the ffmpeg program (`ffmpeg`, or
// when that is empty $MIROFISH_FFMPEG, else "ffmpeg" on the PATH). Errors are AudioFileError
// with the file and the reason: missing, empty, corrupt, or no ffmpeg.
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "audio/wav_file.hpp"

namespace mirofish::cli {

inline constexpr double kAnalysisSampleRate = 48000.0;

// For a long decode in the background: `report` gets the fraction done (0..1,
// when the length is known), `cancelled` is polled as data arrives; when it
// returns true the decoder is stopped and DecodeCancelled thrown.
struct DecodeProgress {
    std::function<void(double)> report;
    std::function<bool()> cancelled;
};

struct DecodeCancelled : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The longest audio a file may decode to: four hours, 2.8 GB of samples at
// the analysis rate. A longer one is refused by name, and its decoding
// stopped as soon as it passes the limit; a damaged header can claim a
// sample rate far below the real one (read at 1 Hz, 100 KB of samples made
// ffmpeg write 9 GB).
inline constexpr double kLongestAudioSeconds = 4 * 3600;

MonoAudio decodeAudioFile(const std::filesystem::path& file, double sampleRate = kAnalysisSampleRate,
                          const DecodeProgress& progress = {}, double longestSeconds = kLongestAudioSeconds,
                          const std::string& ffmpeg = {});

// For a video that carries the file's sound: throws AudioFileError naming
// the file when ffmpeg meets an error in its first audio stream (a damaged
// or cut-off mp3) within the video's `seconds` (0: the whole file). The
// analysis reads past such damage; the video's muxing stops at it, which it
// would do after the last frame. DecodeCancelled as decodeAudioFile.
void checkAudioForVideo(const std::filesystem::path& file, double seconds, const DecodeProgress& progress = {},
                        const std::string& ffmpeg = {});

// The ffmpeg arguments that give it the file as its next input: "-i" and
// the file; for a WAV whose header gives no length or one past its end
// (wavSamplesWithoutLength), its whole frames as raw samples, which ffmpeg
// reads to the end without calling the short last packet damaged.
std::vector<std::string> ffmpegAudioInput(const std::filesystem::path& file);

}  // namespace mirofish::cli
