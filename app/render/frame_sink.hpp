#pragma once
// Where rendered frames go. A sink that is destroyed without finish() was
// cancelled or failed: it removes what it had begun, so nothing half-written
// looks complete (a PNG sequence keeps its complete frames).
#include <QImage>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "export_settings.hpp"

namespace mirofish::render {

class FrameSink {
public:
    virtual ~FrameSink() = default;
    // `frame`: RGBA8888, premultiplied, top row first. Throws ExportError.
    virtual void write(const QImage& frame, std::uint64_t index) = 0;
    // True once a frame can be written without waiting long; waits at most
    // about `wait` for that (false: call again). Throws ExportError when
    // the output has failed meanwhile.
    virtual bool readyFor(std::chrono::milliseconds) { return true; }
    // Completes the output (closes, renames into place), waiting at most
    // about `wait`: false while it is still completing (call again), true
    // once complete. So the editor's window keeps answering while ffmpeg
    // ends a long video (+faststart rewrites the whole file). Throws ExportError.
    virtual bool finishFor(std::chrono::milliseconds wait) = 0;
    // The same, waiting as long as it takes.
    void finish() {
        while (!finishFor(std::chrono::seconds(1))) {
        }
    }
};

// Throws ExportError when the output cannot be written: the folder cannot be
// created or written, it already holds frames (isFrameName), or MP4 / MOV
// without the ffmpeg program. Cheap: run it
// before any other work.
void checkOutput(const ExportSettings& settings);
// Why `output` cannot be a folder of PNG frames because it is named like
// something else: a video of a kind MiroFish does not write (clip.avi), one
// image (still.png), a bare ".mp4", a stray space at its end. Empty if none.
std::string otherKindRefusal(const std::filesystem::path& output);

// A PNG sequence's file names: frame_000000.png, frame_000001.png...
std::string frameName(std::uint64_t index);
bool isFrameName(std::string_view name);

// Frames written by a stopped export whose job is gone. A PNG sequence's
// writers drop the frames still queued, so its folder, which held no frames
// before, tells; a video was given `handedOver` frames.
std::uint64_t framesWritten(const ExportSettings& settings, std::uint64_t handedOver);

// Open the sink for a checked output.
std::unique_ptr<FrameSink> openPngSequence(const ExportSettings& settings);
// A video with sound is opened once its audio file is read: `audioChannels`
// are that file's (its first audio stream's).
std::unique_ptr<FrameSink> openFfmpegPipe(const ExportSettings& settings, int audioChannels = 0);

}  // namespace mirofish::render
