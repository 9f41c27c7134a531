#include "io/printable_text.hpp"

#include <cstdint>
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

std::string wholeCharacters(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        // The length a lead byte announces (0: no lead byte), and the lowest
        // code point of that length (shorter forms are invalid).
        const std::size_t length = byte < 0x80 ? 1 : byte >= 0xC2 && byte < 0xE0 ? 2 : byte >= 0xE0 && byte < 0xF0 ? 3
                                   : byte >= 0xF0 && byte < 0xF5 ? 4 : 0;
        bool whole = length > 0 && i + length <= text.size();
        std::uint32_t code = length == 1 ? byte : length == 2 ? byte & 0x1Fu : length == 3 ? byte & 0x0Fu : byte & 0x07u;
        for (std::size_t j = 1; whole && j < length; ++j) {
            const auto next = static_cast<unsigned char>(text[i + j]);
            whole = (next & 0xC0) == 0x80;
            code = (code << 6) | (next & 0x3Fu);
        }
        whole = whole && !(length == 3 && (code < 0x800 || (code >= 0xD800 && code < 0xE000))) &&
                !(length == 4 && (code < 0x10000 || code > 0x10FFFF));
        if (whole) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += '?';
            ++i;
        }
    }
    return out;
}

}  // namespace mirofish
