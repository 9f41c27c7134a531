#pragma once
// Text from files and folders (a preset's key or value, a file name) as a
// terminal may be given it: a control character there (an escape, a bell)
// would go raw to the terminal and could clear it or rewrite what was said.
#include <string>
#include <string_view>

namespace mirofish {

// The control character that starts at text[i], as its code point, or -1:
// U+0000-U+001F, U+007F, and U+0080-U+009F in UTF-8 (0xC2 then 0x80-0x9F),
// the C1 controls, which terminals obey as well (U+009B starts an escape
// sequence). Line breaks and tabs count.
int controlCharacterAt(std::string_view text, std::size_t i);

// `text` with each control character but the line break and the tab written
// as U+XXXX.
std::string printableText(std::string_view text);

// `text` with each byte that is no part of a whole UTF-8 character written as
// '?': a parser's quote of what it read last can end in the first byte of a
// character it stopped in (a curly quote), which broke the line's encoding.
std::string wholeCharacters(std::string_view text);

// "U+001B" for 0x1b.
std::string codePointName(int code);

}  // namespace mirofish
