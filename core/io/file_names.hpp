#pragma once
// What a file's name says about it, the same for every reader.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace mirofish {

// The extension in lower case (".mp4" for "clip.MP4"), or "".
inline std::string lowerExtension(const std::filesystem::path& file) {
    std::string ext = file.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// The file as ffmpeg must be given it: "file:" and the absolute path. A bare
// name that starts like one of ffmpeg's protocols ("pipe:1.mp4", "data:x")
// would be read as that protocol instead of the file.
inline std::string ffmpegFileUrl(const std::filesystem::path& file) {
    return "file:" + std::filesystem::absolute(file).string();
}

// The ffmpeg program to run: `program` where given, else $MIROFISH_FFMPEG
// where set, else "ffmpeg" on the PATH.
inline std::string ffmpegProgramNamed(const std::string& program) {
    if (!program.empty()) return program;
    if (const char* env = std::getenv("MIROFISH_FFMPEG"); env && *env) return env;
    return "ffmpeg";
}

}  // namespace mirofish
