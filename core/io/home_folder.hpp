#pragma once
// A path typed or set by hand that starts with ~, read as a shell reads it:
// set in quotes (a launcher's Environment= line, '~/mine' in a shell) or
// typed into a field, ~ reaches the program as it is.
#include <optional>
#include <string>

namespace mirofish {

// `path` with "~" alone or a leading "~/" read as the home folder ($HOME);
// nothing where it starts so and HOME is not set (Qt then names the root,
// and the files went to /). Any other path as it is ("~user" too).
std::optional<std::string> withHomeFolder(std::string path);

// Why such a path cannot be read, after "'PATH' " or "PATH, which ".
inline constexpr const char* kTildeWithoutHome =
    "starts with ~, the home folder, and HOME is not set: give the whole path";

}  // namespace mirofish
