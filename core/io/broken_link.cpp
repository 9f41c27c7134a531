#include "io/broken_link.hpp"

#include <system_error>

namespace mirofish {

std::string brokenLinkOnTheWay(const std::filesystem::path& path) {
    std::error_code ec;
    const std::filesystem::path whole = std::filesystem::absolute(path, ec);
    if (ec) return {};  // the working folder gone: wholePath says so where it matters
    std::filesystem::path prefix;
    for (const std::filesystem::path& part : whole) {
        if (part == ".") continue;  // "/here/./link" would name the link oddly
        prefix /= part;
        if (!std::filesystem::is_symlink(prefix, ec)) continue;
        std::error_code unreachable;  // no entry allowed, a loop of links
        if (std::filesystem::exists(prefix, unreachable)) continue;
        return "'" + prefix.string() + "' is a link to '" + std::filesystem::read_symlink(prefix, ec).string() +
               "', which " +
               (unreachable ? "cannot be reached (" + unreachable.message() + ")" : "is not there (a drive not mounted?)");
    }
    return {};
}

std::string unreadableBecause(const std::filesystem::path& file, std::string reason) {
    std::string broken = brokenLinkOnTheWay(file);
    return broken.empty() ? reason : broken;
}

}  // namespace mirofish
