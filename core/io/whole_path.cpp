#include "io/whole_path.hpp"

#include <stdexcept>
#include <system_error>

namespace mirofish {

std::filesystem::path wholePath(const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::path whole = std::filesystem::absolute(path, ec);
    if (ec)
        throw std::runtime_error("cannot tell where '" + path.string() +
                                 "' is: a path that does not start with / is taken from the folder MiroFish was "
                                 "started in, which cannot be read (" + ec.message() +
                                 ", deleted?); give the whole path");
    return whole;
}

}  // namespace mirofish
