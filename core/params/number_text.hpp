#pragma once
// Numbers as people write them, in messages and in JSON output.
#include <charconv>
#include <string>

namespace mirofish {

// For a message: at least nine significant digits, so no exponent below a
// billion (2000000, not the stream's 2e+06), and as many more as tell it
// from its neighbours (5000.0000001 is not 5000). Written as printf's %.*g
// would in the C locale, whatever locale is set: Qt sets the user's, where
// printf wrote 0,5 beside the 0.5 that the number fields show.
inline std::string numberText(double value) {
    char text[32];
    char* end = text;
    for (int digits = 9; digits <= 17; ++digits) {
        end = std::to_chars(text, text + sizeof text, value, std::chars_format::general, digits).ptr;
        double back = 0;
        std::from_chars(text, end, back);
        if (back == value) break;
    }
    return std::string(text, end);
}

// With `decimals` digits after the point, as printf's %.*f in the C locale,
// whatever locale is set (see numberText).
inline std::string fixedText(double value, int decimals) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals).ptr;
    return std::string(text, end);
}

// A float as the double of its shortest decimal that reads back as that
// float, for JSON, which prints a double as such: 1.2, where the float's own
// double is 1.2000000476837158. Both conversions ignore the C locale (the
// editor's Qt sets the user's, where strtod would stop at the "." of 1.2).
inline double shortestDecimal(float value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    double shortest = 0;
    std::from_chars(text, end, shortest);
    return shortest;
}

}  // namespace mirofish
