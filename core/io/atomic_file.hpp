#pragma once
// Write a file so that it is either complete or absent: the content goes to
// a temporary file beside the target, is flushed, and only then renamed over
// the target. A symbolic link stays a link: the file it points to is written
// (beside which the temporary goes). A target that exists and is not a
// regular file (a device, a FIFO, a folder) is refused and left as it is.
// Throws std::runtime_error naming the file on any failure, and removes the
// temporary.
#include <filesystem>
#include <functional>
#include <ostream>

namespace mirofish {

void writeFileAtomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);

}  // namespace mirofish
