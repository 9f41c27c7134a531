#pragma once
// A path made whole (absolute), or an error that says why it cannot be: a
// path that does not start with / is taken from the folder the program was
// started in, which may have been deleted since. std::filesystem::absolute
// then throws a library error ("cannot make absolute path") that tells the
// user nothing.
#include <filesystem>

namespace mirofish {

// Throws std::runtime_error naming the path and what to do.
std::filesystem::path wholePath(const std::filesystem::path& path);

}  // namespace mirofish
