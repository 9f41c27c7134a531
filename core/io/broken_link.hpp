#pragma once
// A link on the way to a folder that leads nowhere (to a drive not
// mounted): creating the folder then fails with "File exists", which sends
// the user looking at the wrong thing.
#include <filesystem>
#include <string>

namespace mirofish {

// The kernel gives up after 40 links in a row (SYMLOOP_MAX on Linux).
inline constexpr int kMostLinksFollowed = 40;

// Empty, or "'PREFIX' is a link to 'TARGET', which is not there (a drive
// not mounted?)" (or "which cannot be reached (WHY)") for the first such
// link on the way to `path` (made absolute; empty where it cannot be).
std::string brokenLinkOnTheWay(const std::filesystem::path& path);

// Why `file` cannot be read: the link on the way that leads nowhere where
// there is one ("no such file" would send the user looking for a file that
// is on an unmounted drive), else `reason`.
std::string unreadableBecause(const std::filesystem::path& file, std::string reason);

}  // namespace mirofish
