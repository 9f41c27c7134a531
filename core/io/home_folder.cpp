#include "io/home_folder.hpp"

#include <cstdlib>

namespace mirofish {

std::optional<std::string> withHomeFolder(std::string path) {
    if (path != "~" && !path.starts_with("~/")) return path;
    const char* home = std::getenv("HOME");
    if (!home || !*home) return std::nullopt;
    path.replace(0, 1, home);
    return path;
}

}  // namespace mirofish
