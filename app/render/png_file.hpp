#pragma once
// Writes a PNG fast: libpng with one fixed row filter and a chosen zlib
// level. On the trail frames this is about three times faster than QImage's
// writer (which tries every filter at level 6) for files no larger.
#include <QImage>
#include <filesystem>
#include <string>

namespace mirofish::render {

// `image`: Format_RGB888 or Format_RGBA8888 (straight alpha). level: zlib's
// 0 (stored) to 9. Returns an empty string, or why the file could not be
// written (the partial file is then left for the caller to remove).
std::string writePngFile(const std::filesystem::path& file, const QImage& image, int level);

// Stills and screenshots: one image each, where the file's size matters
// more than the time it takes (level 1 is for sequences of frames).
inline constexpr int kStillPngLevel = 6;

// Writes `image` (any format: opaque, or with straight alpha where `alpha`)
// as FILE.part-PID, renamed to `file` once complete, so that a full disk leaves
// no cut-off PNG under the name. A link is written through; a device, FIFO
// or folder of that name is refused and left as it is (io/atomic_file.hpp
// fileTarget). Returns an empty string, or why it could not be written (no
// .part is left then). Not `replace`: a file already there is kept, and the
// save fails (a sequence's frames: another export writing into the folder
// replaced them, and both exports said they were complete).
std::string savePngWhole(const std::filesystem::path& file, const QImage& image, bool alpha, int level,
                         bool replace = true);

}  // namespace mirofish::render
