#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace mirofish {

void writeFileAtomically(const std::filesystem::path& file, const std::function<void(std::ostream&)>& write) {
    const std::filesystem::path tmp = file.string() + ".tmp-" + std::to_string(::getpid());
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
            std::filesystem::remove(tmp, ignored);
            throw std::runtime_error(file.string() + ": writing failed (" + why + "); nothing was saved");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw std::runtime_error(file.string() + ": cannot replace the file (" + ec.message() + ")");
    }
}

}  // namespace mirofish
