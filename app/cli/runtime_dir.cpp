#include "cli/runtime_dir.hpp"

#include <cstdlib>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace mirofish::cli {

void useQuietRuntimeDir() {
    const char* set = std::getenv("XDG_RUNTIME_DIR");
    if (set && *set) return;
    const std::string dir = "/tmp/runtime-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    // Qt's own conditions for a runtime folder: a folder, ours, and no one else's to read.
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() ||
        (st.st_mode & 0777) != 0700)
        return;
    ::setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
}

}  // namespace mirofish::cli
