#pragma once
// Write a file so that it is either complete or absent: the content goes to
// a temporary file beside the target, is flushed, and only then renamed over
// the target. Throws std::runtime_error naming the file on any failure, and
// removes the temporary.
#include <filesystem>
#include <functional>
#include <ostream>

namespace mirofish {

void writeFileAtomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write);

}  // namespace mirofish
