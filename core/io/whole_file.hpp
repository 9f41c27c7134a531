#pragma once
// Files read whole (presets, state files, audio) must be regular files: a
// device such as /dev/zero never ends and a named pipe may never deliver, so
// reading one to its end hung or filled memory.
#include <filesystem>
#include <string>

namespace mirofish {

// What `file` is when it is not a regular file ("a folder", "a device, pipe
// or socket"); empty when it is one, or when it does not exist (opening it
// then says so).
inline std::string notARegularFile(const std::filesystem::path& file) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(file, ec);
    if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) return {};
    return std::filesystem::is_directory(status) ? "a folder" : "a device, pipe or socket";
}

}  // namespace mirofish
