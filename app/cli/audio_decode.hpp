#pragma once
// Any audio file to mono float samples at one rate: WAV is read natively;
// flac, mp3, ogg and the rest go through the ffmpeg program (its path from
// $MIROFISH_FFMPEG, else "ffmpeg" on the PATH). Errors are AudioFileError
// with the file and the reason: missing, empty, corrupt, or no ffmpeg.
#include <filesystem>

#include "audio/wav_file.hpp"

namespace mirofish::cli {

inline constexpr double kAnalysisSampleRate = 48000.0;

MonoAudio decodeAudioFile(const std::filesystem::path& file, double sampleRate = kAnalysisSampleRate);

}  // namespace mirofish::cli
