#pragma once
// A number as people write it in a message: at least nine significant
// digits, so no exponent below a billion (2000000, not the stream's 2e+06),
// and as many more as tell it from its neighbours (5000.0000001 is not 5000).
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mirofish {

inline std::string numberText(double value) {
    char text[32];
    for (int digits = 9; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) break;
    }
    return text;
}

}  // namespace mirofish
