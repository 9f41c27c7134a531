#include "png_file.hpp"

#include <fcntl.h>
#include <stdio.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <png.h>
#include <zlib.h>

#include "io/atomic_file.hpp"

namespace mirofish::render {

namespace {
// libpng's own handlers print to stderr ("libpng error: Write Error") before
// the export says what failed, in its words; these stay quiet.
[[noreturn]] void quietError(png_structp png, png_const_charp) { png_longjmp(png, 1); }
void quietWarning(png_structp, png_const_charp) {}

// libpng reports errors by longjmp: keep everything with a destructor out of this function.
const char* encode(std::FILE* file, const QImage& image, int level) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, quietError, quietWarning);
    if (!png) return "out of memory";
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return "the PNG encoder stopped";
    }
    png_init_io(png, file);
    png_set_compression_level(png, level);
    // The default level 1 uses run-length matches only, on the difference to
    // the pixel on the left (the Sub filter: flat water becomes runs of
    // zeros, where the raw bytes repeat only every three or four). A dense
    // 1080p trail frame took 119 ms instead of zlib's usual search's 187 ms,
    // which brought export from 8.4 to 11 frames per second here. The Sub
    // filter (2026-12-04) made the files smaller at the same frame rate:
    // 150 frames of gentle-cruise with 5000 fish at 1920x1080 with trails
    // 748 MB instead of 862, 30 frames with its own 200 fish 28 MB instead
    // of 68. Levels 2-9 trade speed for size with zlib's usual search,
    // unfiltered (Sub made them larger: 22 against 17 MB at level 2).
    const bool runLength = level <= 1;
    png_set_compression_strategy(png, runLength ? Z_RLE : Z_DEFAULT_STRATEGY);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, runLength ? PNG_FILTER_SUB : PNG_FILTER_NONE);
    const int colour = image.format() == QImage::Format_RGBA8888 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB;
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width()), static_cast<png_uint_32>(image.height()), 8,
                 colour, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image.height(); ++y) png_write_row(png, image.constScanLine(y));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return nullptr;
}
}  // namespace

std::string writePngFile(const std::filesystem::path& file, const QImage& image, int level) {
    std::FILE* f = std::fopen(file.c_str(), "wb");
    if (!f) return std::strerror(errno);
    errno = 0;
    const char* failure = encode(f, image, level);
    const int encodeError = errno;
    const bool flushed = std::fflush(f) == 0 && !std::ferror(f);
    const int flushError = errno;
    const bool closed = std::fclose(f) == 0;
    if (failure) return encodeError ? std::string(failure) + ": " + std::strerror(encodeError) : failure;
    if (!flushed || !closed) return std::strerror(flushed ? errno : flushError);
    return {};
}

namespace {
// Renames `from` to `to` unless `to` is there (EEXIST): in one step where the
// file system can (renameat2), else by a look first.
std::error_code renameNotOver(const std::filesystem::path& from, const std::filesystem::path& to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return {};
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) return {errno, std::generic_category()};
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(to, ec)))
        return std::make_error_code(std::errc::file_exists);
    std::filesystem::rename(from, to, ec);
    return ec;
}
}  // namespace

std::string savePngWhole(const std::filesystem::path& file, const QImage& image, bool alpha, int level, bool replace) {
    const FileTarget target = fileTarget(file);
    if (!target.refusal.empty()) return target.refusal;
    const std::filesystem::path partial = partialBeside(target.path);
    const QImage pixels = image.convertToFormat(alpha ? QImage::Format_RGBA8888 : QImage::Format_RGB888);
    std::string why = writePngFile(partial, pixels, level);
    if (why.empty()) {
        std::error_code ec;
        if (replace) std::filesystem::rename(partial, target.path, ec);
        else ec = renameNotOver(partial, target.path);
        if (!ec) return {};
        why = ec == std::errc::file_exists ? "it is there already: is another export writing into this folder?"
                                           : ec.message();
    }
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    return why;
}

}  // namespace mirofish::render
