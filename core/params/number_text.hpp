#pragma once
// A number as people write it in a message: up to nine significant digits,
// no exponent below a billion (2000000, not the stream's 2e+06).
#include <cstdio>
#include <string>

namespace mirofish {

inline std::string numberText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

}  // namespace mirofish
