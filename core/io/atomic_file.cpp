#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "io/broken_link.hpp"

namespace mirofish {

namespace fs = std::filesystem;

namespace {

// The file the links from `file` lead to, or nothing where they cannot be
// followed (why goes to `refusal`). A relative link is read from the link's
// own folder, as the system reads it.
std::optional<fs::path> followLinks(const fs::path& file, std::string& refusal) {
    fs::path target = file;
    for (int links = 0;; ++links) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(target, ec))) return target;
        if (links == kMostLinksFollowed) {
            refusal = "is a loop of symbolic links, or a chain of more than " + std::to_string(kMostLinksFollowed) +
                      "; nothing was written";
            return std::nullopt;
        }
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) {
            refusal = "leads through the symbolic link " + target.string() + ", which cannot be read (" + ec.message() +
                      "); nothing was written";
            return std::nullopt;
        }
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

}  // namespace

FileTarget fileTarget(const fs::path& file) {
    std::string refusal;
    std::optional<fs::path> target = followLinks(file, refusal);
    if (!target) return {file, refusal};
    // The copy written first is named longer (".tmp-PID", ".part-PID"): a name
    // near the system's 255 bytes passed, and the copy failed after the
    // whole run with "File name too long".
    if (const std::size_t length = target->filename().string().size(); length > kLongestOutputName)
        return {*target, "has a name of " + std::to_string(length) + " bytes, longer than the " +
                             std::to_string(kLongestOutputName) +
                             " a file written here may have (it is first written under a longer name); "
                             "nothing was written"};
    // Replacing anything but a regular file (a device, a FIFO, a folder)
    // with one would break whatever relies on it.
    std::error_code ec;
    fs::file_status status = fs::status(*target, ec);
    // A link that the kernel follows and that reads as no path: /dev/stdout
    // into a pipe is /proc/self/fd/1, which reads "pipe:[1234]". Taken for a
    // file that is not there, the run went ahead and its save failed at the end.
    if (!fs::exists(status)) {
        const fs::file_status direct = fs::status(file, ec);
        if (fs::exists(direct) && !fs::is_regular_file(direct)) {
            target = file;
            status = direct;
        }
    }
    if (!fs::exists(status) || fs::is_regular_file(status)) return {*target, {}};
    const std::string via = *target == file ? "" : "(through the link to " + target->string() + ") ";
    return {*target, via + "is " + kindOf(status.type()) + ", not a regular file; it was left as it is and nothing was written"};
}

std::filesystem::path partialBeside(const std::filesystem::path& file) {
    return file.string() + ".part-" + std::to_string(::getpid());
}

void writeFileAtomically(const fs::path& file, const std::function<void(std::ostream&)>& write) {
    const FileTarget where = fileTarget(file);
    if (!where.refusal.empty()) throw std::runtime_error(file.string() + ": " + where.refusal);
    const fs::path& target = where.path;
    // Beside the target, so that the rename stays within one file system.
    const fs::path tmp = target.string() + ".tmp-" + std::to_string(::getpid());
    const auto fail = [&](const std::string& why) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error(file.string() + ": writing failed (" + why + "); nothing was saved");
    };
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            // Through a link, the folder written is the link's target's (a
            // link "a.bin -> b.bin" in the working folder has none in its name).
            std::error_code ignored;
            const std::string place =
                target == file ? "here" : "in " + fs::absolute(target, ignored).parent_path().string() + ", where its link leads";
            throw std::runtime_error(file.string() + ": cannot write " + place + " (" + std::strerror(errno) + ")");
        }
        write(out);
        out.flush();
        if (!out) {
            const std::string why = std::strerror(errno);
            out.close();
            fail(why);
        }
        // Some file systems (NFS, a full quota) report a failed write only here.
        out.close();
        if (!out) fail(std::strerror(errno));
    }
    // On the disk before the rename: after a crash or a power cut the file
    // is the old one or the new one, never the new name over missing data.
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        const std::string why = std::strerror(errno);
        if (fd >= 0) ::close(fd);
        fail(why);
    }
    ::close(fd);
    std::error_code ec;
    // A file replaced keeps who may read it (a preset made private stays so).
    const fs::file_status old = fs::status(target, ec);
    if (!ec && fs::is_regular_file(old)) fs::permissions(tmp, old.permissions(), ec);
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error(file.string() + ": cannot replace the file (" + ec.message() + ")");
    }
}

}  // namespace mirofish
