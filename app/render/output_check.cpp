// What an export checks before it starts: the output can be written, and
// the ffmpeg program is there when the output is a video.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

#include "frame_sink.hpp"
#include "io/atomic_file.hpp"
#include "io/broken_link.hpp"
#include "io/whole_path.hpp"
#include "io/file_names.hpp"

namespace mirofish::render {

namespace {
// frames: the folder is the output itself, for PNG frames; else the folder
// a video goes into.
void requireWritableFolder(const std::filesystem::path& folder, bool frames) {
    std::error_code ec;
    if (const std::string broken = brokenLinkOnTheWay(folder); !broken.empty())
        throw ExportError("cannot write to the output folder '" + folder.string() + "': " + broken);
    // A file there: "cannot be created (Not a directory)" would not say what to do.
    if (std::filesystem::exists(folder, ec) && !std::filesystem::is_directory(folder, ec))
        throw ExportError(frames ? "the output '" + folder.string() +
                                       "' is a file; PNG frames go into a folder: name a folder, or FILE.mp4 or "
                                       "FILE.mov for a video"
                                 : "cannot write the video into '" + folder.string() +
                                       "': it is a file, not a folder");
    std::filesystem::create_directories(folder, ec);
    if (ec || !std::filesystem::is_directory(folder))
        throw ExportError("cannot write to the output folder '" + folder.string() + "': it cannot be created" +
                          (ec ? " (" + ec.message() + ")" : std::string{}));
    // Permissions alone do not tell (root ignores them, mounts may be read-only): try.
    const auto probe = folder / ".mirofish-write-test";
    if (FILE* f = std::fopen(probe.c_str(), "wb")) {
        std::fclose(f);
        std::filesystem::remove(probe, ec);
        return;
    }
    throw ExportError("cannot write to the output folder '" + folder.string() + "': it is not writable");
}
// Frames of an earlier export would read as part of the new sequence
// wherever the new one is shorter; they are the user's, so nothing is removed.
void requireNoFrames(const std::filesystem::path& folder) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!isFrameName(name)) continue;
        throw ExportError("the output folder '" + folder.string() + "' already holds frames (" + name +
                          "...), which would mix with the new ones; choose an empty folder, or move them away first");
    }
}
}  // namespace

// An output named like a video of a kind MiroFish does not write, or like
// one image, would otherwise become a folder of PNG frames of that name.
std::string otherKindRefusal(const std::filesystem::path& output) {
    constexpr std::array kOtherVideos{".avi", ".mkv", ".webm", ".gif", ".m4v", ".mpg", ".mpeg", ".wmv", ".flv", ".ogv",
                                      ".ts",  ".mts", ".m2ts", ".mxf", ".3gp", ".vob"};
    constexpr std::array kImages{".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp", ".exr", ".dpx", ".tga", ".avif"};
    // "clip.mp4 " (a script's stray space) is no MP4.
    const std::string file = output.filename().string();
    if (!file.empty() && std::isspace(static_cast<unsigned char>(file.back())))
        return "'" + output.string() + "' ends with a space, which would make it a folder of PNG frames of "
               "that name; remove the space";
    // "clip.mp4/" names the folder "clip.mp4": most likely a video's name
    // with a stray slash. Any other name with a slash is the folder asked for.
    if (!output.has_filename()) {
        const std::filesystem::path folder = output.parent_path();
        if (const std::string kind = lowerExtension(folder); kind == ".mp4" || kind == ".mov")
            return "'" + output.string() + "' ends with a slash, which would make it a folder of PNG frames named "
                   "like a video; remove the slash to write " + folder.filename().string();
    }
    const std::string ext = lowerExtension(output);
    // ".mp4" alone has no extension: a hidden folder of PNG frames would be
    // written where a video was meant ("Videos/" with MP4 chosen).
    std::string name = file;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name == ".mp4" || name == ".mov")
        return "'" + output.string() + "' names no video: give it a name before " + name + " (clip" + name + ")";
    if (std::find(kOtherVideos.begin(), kOtherVideos.end(), ext) != kOtherVideos.end())
        return "'" + output.string() + "': " + ext.substr(1) +
               " is not written; MiroFish writes FILE.mp4 (H.264), FILE.mov (ProRes) or a folder of PNG frames";
    if (std::find(kImages.begin(), kImages.end(), ext) != kImages.end())
        return "'" + output.string() + "' is named like one image, but PNG frames go into a folder: name the folder "
               "(frames/ makes frames/frame_000000.png...), or FILE.mp4 or FILE.mov for a video";
    return {};
}

namespace {
// A video replaces a file of its name when it is complete (through a link,
// the file the link leads to, which is returned); anything else of that name
// (a folder, a device) is refused now, before the whole render, and left as
// it is.
std::filesystem::path requireFileOrAbsent(const std::filesystem::path& output) {
    const FileTarget target = fileTarget(output);
    if (!target.refusal.empty())
        throw ExportError("the output '" + output.string() + "' " + target.refusal +
                          "; give another name to write the video to");
    return target.path;
}
// ffmpeg reads the audio while it writes the video beside it (FILE.part-PID),
// then the video takes its name: `--audio clip.mp4 --out clip.mp4` would end
// with the user's clip gone.
void requireNotTheAudio(const std::filesystem::path& video, const ExportSettings& settings) {
    if (settings.audioFile.empty()) return;
    std::error_code ec;
    if (!std::filesystem::equivalent(video, settings.audioFile, ec)) return;
    throw ExportError("the output '" + settings.output.string() + "' is the audio file '" + settings.audioFile +
                      "' the video is made from, and would replace it; give the video another name");
}

// ffmpeg opens the audio again to put its sound into the video, by a name of
// its own: /dev/stdin named ffmpeg's own standard input, the frames ("input
// channel 'FL' not available"). A name that leads to a file (/dev/stdin of
// `< song.wav`) is given to ffmpeg as that file (ffmpeg_pipe_sink). A pipe is
// refused here, before any frame; the analysis would refuse it for PNG
// frames too (cli/audio_decode.hpp), so saving it to a file is the only way.
void requireAudioToReadAgain(const ExportSettings& settings) {
    if (settings.audioFile.empty()) return;
    std::error_code ec;
    if (!std::filesystem::exists(settings.audioFile, ec)) return;  // said where the audio is read
    if (std::filesystem::is_regular_file(std::filesystem::canonical(settings.audioFile, ec), ec)) return;
    throw ExportError("the audio '" + settings.audioFile +
                      "' is no file that ffmpeg can read again to put its sound into the video (a pipe, or "
                      "standard input from one); save it to a file first");
}
}  // namespace

void checkOutput(const ExportSettings& settings) {
    if (settings.output.empty()) throw ExportError("no output given (a folder, FILE.mp4 or FILE.mov)");
    if (settings.kind() == OutputKind::PngSequence) {
        if (const std::string why = otherKindRefusal(settings.output); !why.empty()) throw ExportError(why);
        requireWritableFolder(settings.output, true);
        requireNoFrames(settings.output);
        return;
    }
    const std::string program = ffmpegProgram(settings);
    if (findProgram(program).empty()) {
        std::error_code ec;
        const bool there = program.find('/') != std::string::npos && std::filesystem::exists(program, ec);
        throw ExportError("MP4 and MOV export need the ffmpeg program, and '" + program + "' " +
                          (there ? "is not a program that can be run" : "was not found") +
                          " (install the package ffmpeg, or point MIROFISH_FFMPEG or --ffmpeg at it); "
                          "PNG export works without it");
    }
    const std::filesystem::path video = requireFileOrAbsent(settings.output);
    // Named by a link into a folder that is not there (a drive not mounted):
    // the folders were made on the local disk, and the video went there. (A
    // link to a bare name, beside it in the folder the program started in,
    // leads to a path without a folder: made whole, it has one.)
    if (std::error_code ec; std::filesystem::is_symlink(settings.output, ec) &&
                            !std::filesystem::exists(wholePath(video).parent_path(), ec))
        throw ExportError("the output '" + settings.output.string() + "' is a link to '" +
                          std::filesystem::read_symlink(settings.output, ec).string() +
                          "', whose folder is not there (a drive not mounted?)");
    requireNotTheAudio(video, settings);
    requireAudioToReadAgain(settings);
    requireWritableFolder(wholePath(video).parent_path(), false);
}

}  // namespace mirofish::render
