#include "io/broken_link.hpp"

#include <system_error>

namespace mirofish {

namespace {

std::string brokenLinkOnTheWay(const std::filesystem::path& path, int linksFollowed) {
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
        const std::filesystem::path target = std::filesystem::read_symlink(prefix, ec);
        // A link to a link: the one that leads nowhere is the last of the chain.
        if (!unreachable && linksFollowed < kMostLinksFollowed) {
            const std::filesystem::path next = target.is_absolute() ? target : prefix.parent_path() / target;
            if (std::string further = brokenLinkOnTheWay(next, linksFollowed + 1); !further.empty()) return further;
        }
        return "'" + prefix.string() + "' is a link to '" + target.string() + "', which " +
               (unreachable ? "cannot be reached (" + unreachable.message() + ")" : "is not there (a drive not mounted?)");
    }
    return {};
}
}  // namespace

std::string brokenLinkOnTheWay(const std::filesystem::path& path) { return brokenLinkOnTheWay(path, 0); }

std::string unreadableBecause(const std::filesystem::path& file, std::string reason) {
    std::string broken = brokenLinkOnTheWay(file);
    return broken.empty() ? reason : broken;
}

}  // namespace mirofish
