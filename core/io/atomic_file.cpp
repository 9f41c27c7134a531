#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace mirofish {

namespace fs = std::filesystem;

namespace {

// The kernel gives up after 40 links (SYMLOOP_MAX on Linux).
constexpr int kMaxLinks = 40;

// Where writing `file` lands: the file itself, or, through symbolic links,
// the file they point to (which may not exist yet). A relative link is read
// from the link's own folder, as the system reads it.
fs::path followLinks(const fs::path& file) {
    fs::path target = file;
    for (int links = 0;; ++links) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(target, ec))) return target;
        if (links == kMaxLinks)
            throw std::runtime_error(file.string() + ": too many levels of symbolic links; nothing was written");
        const fs::path next = fs::read_symlink(target, ec);
        if (ec)
            throw std::runtime_error(file.string() + ": cannot read the symbolic link " + target.string() + " (" +
                                     ec.message() + "); nothing was written");
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
}

std::string kindOf(fs::file_type type) {
    switch (type) {
        case fs::file_type::directory: return "a folder";
        case fs::file_type::fifo: return "a FIFO (named pipe)";
        case fs::file_type::character: return "a character device";
        case fs::file_type::block: return "a block device";
        case fs::file_type::socket: return "a socket";
        default: return "of an unknown kind";
    }
}

// Replacing anything but a regular file (a device, a FIFO, a folder) with
// one would break whatever relies on it.
void requireRegularOrAbsent(const fs::path& file, const fs::path& target) {
    std::error_code ec;
    const fs::file_status status = fs::status(target, ec);
    if (!fs::exists(status) || fs::is_regular_file(status)) return;
    const std::string via = target == file ? "" : " (through the link to " + target.string() + ")";
    throw std::runtime_error(file.string() + via + ": is " + kindOf(status.type()) +
                             ", not a regular file; it was left as it is and nothing was written");
}

}  // namespace

void writeFileAtomically(const fs::path& file, const std::function<void(std::ostream&)>& write) {
    const fs::path target = followLinks(file);
    requireRegularOrAbsent(file, target);
    // Beside the target, so that the rename stays within one file system.
    const fs::path tmp = target.string() + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(file.string() + ": cannot write here (" + std::strerror(errno) + ")");
        write(out);
        out.flush();
        if (!out) {
            const std::string why = std::strerror(errno);
            out.close();
            std::error_code ignored;
            fs::remove(tmp, ignored);
            throw std::runtime_error(file.string() + ": writing failed (" + why + "); nothing was saved");
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error(file.string() + ": cannot replace the file (" + ec.message() + ")");
    }
}

}  // namespace mirofish
