#pragma once
// Write a file so that it is either complete or absent: the content goes to
// a temporary file beside the target, is flushed to the disk, and only then
// renamed over the target, whose permissions it takes. A symbolic link stays a link: the file it points to is written
// (beside which the temporary goes). A target that exists and is not a
// regular file (a device, a FIFO, a folder) is refused and left as it is.
// Throws std::runtime_error naming the file on any failure, and removes the
// temporary.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace mirofish {

// Where writing `file` lands: the file itself or, through symbolic links,
// the file they point to (which may not exist yet). `refusal` is empty, or
// why nothing may be written there, in words that follow the file's name
// ("is a FIFO (named pipe), not a regular file; ..."): the target exists and
// is not a regular file, or the links cannot be followed. Every writer that
// replaces a file by renaming a finished copy over it goes through this, so
// that a link is written through and a device stays a device.
// The longest file name written: the system's 255 bytes less room for the
// copy's longer name (".tmp-" or ".part-" and a process id).
inline constexpr std::size_t kLongestOutputName = 240;

struct FileTarget {
    std::filesystem::path path;
    std::string refusal;
};
FileTarget fileTarget(const std::filesystem::path& file);

// Where a file is written before it is complete and renamed to `file`:
// beside it, FILE.part-PID. The process id keeps two runs writing one name
// apart: both wrote into one FILE.part, the first to finish renamed it, and
// the other went on writing into the finished file.
std::filesystem::path partialBeside(const std::filesystem::path& file);

void writeFileAtomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);

}  // namespace mirofish
