#include "io/printable_text.hpp"

#include <cstdio>

namespace mirofish {

int controlCharacterAt(std::string_view text, std::size_t i) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (ch < 0x20 || ch == 0x7f) return ch;
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0u;
    if (ch == 0xC2 && next >= 0x80 && next <= 0x9F) return static_cast<int>(next);
    return -1;
}

std::string codePointName(int code) {
    char name[8];
    std::snprintf(name, sizeof name, "U+%04X", code);
    return name;
}

std::string printableText(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int code = controlCharacterAt(text, i);
        if (code < 0 || code == '\n' || code == '\t') {
            out += text[i];
            continue;
        }
        out += codePointName(code);
        if (code >= 0x80) ++i;  // the C1 control's second byte
    }
    return out;
}

}  // namespace mirofish
