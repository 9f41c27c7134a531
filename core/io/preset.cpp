#include "io/preset.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/broken_link.hpp"
#include "io/printable_text.hpp"
#include "io/whole_file.hpp"
#include "params/number_text.hpp"

namespace mirofish {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Why a preset's name (or, with lineBreaks, its description) cannot hold
// `text`, or empty: a control character (a NUL, an escape, a bell) would go
// raw to the terminal from `validate` and `presets`, and could rewrite it.
std::string controlCharacterIn(std::string_view text, bool lineBreaks) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int code = controlCharacterAt(text, i);
        if (code < 0 || (lineBreaks && (code == '\n' || code == '\t'))) continue;
        return "holds a control character (" + codePointName(code) + ")" +
               (lineBreaks ? "" : "; a name is one line of text");
    }
    return {};
}

// Whether `text` (UTF-8) is nothing but spaces: ASCII ones and the other
// Unicode spaces that the editor's Save as trims away (QChar::isSpace), a
// no-break space or an ideographic space (which an input method types)
// among them. Such a name is listed with no visible title.
bool onlySpaces(std::string_view text) {
    static constexpr std::string_view kSpaces[] = {
        " ", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006",
        "\u2007", "\u2008", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"};
    while (!text.empty()) {
        const auto space = std::find_if(std::begin(kSpaces), std::end(kSpaces),
                                        [&](std::string_view s) { return text.starts_with(s); });
        if (space == std::end(kSpaces)) return false;
        text.remove_prefix(space->size());
    }
    return true;
}

constexpr std::string_view kFormat = "mirofish-preset";

// Validation context: the file and the path of keys to the current value.
class Checker {
public:
    explicit Checker(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw PresetError(source_ + ": " + (where.empty() ? "" : "'" + where + "' ") + what);
    }

    void allowOnly(const json& obj, const std::string& where, std::initializer_list<std::string_view> keys) const {
        if (!obj.is_object()) fail(where, "must be an object");
        for (const auto& [key, value] : obj.items()) {
            if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
            std::string allowed;
            for (std::string_view k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
            fail(join(where, key), "is not a known key here (allowed: " + allowed + ")");
        }
    }

    // unit: of the range, in messages ("px", or a parameter's unit).
    double number(const json& obj, const std::string& where, const std::string& key, double lo, double hi,
                  std::string_view unit = {}) const {
        const std::string path = join(where, key);
        if (!obj.contains(key)) fail(path, "is missing");
        return numberValue(obj.at(key), path, lo, hi, unit);
    }

    double numberValue(const json& v, const std::string& path, double lo, double hi, std::string_view unit = {}) const {
        std::string range = numberText(lo);
        range += " to ";
        range += numberText(hi);
        if (!unit.empty()) range.append(" ").append(unit);
        if (!v.is_number()) fail(path, "must be a number from " + range + ", not " + std::string(v.type_name()));
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi) fail(path, "is " + numberText(d) + ", outside the allowed range " + range);
        return d;
    }

    std::string text(const json& obj, const std::string& where, const std::string& key) const {
        const std::string path = join(where, key);
        if (!obj.contains(key)) fail(path, "is missing");
        if (!obj.at(key).is_string()) fail(path, "must be a string, not " + std::string(obj.at(key).type_name()));
        return obj.at(key).get<std::string>();
    }

    template <typename Enum>
    Enum choice(const json& obj, const std::string& where, const std::string& key,
                std::initializer_list<std::pair<std::string_view, Enum>> options) const {
        const std::string value = text(obj, where, key);
        std::string allowed;
        for (const auto& [label, e] : options) {
            if (label == value) return e;
            allowed += (allowed.empty() ? "" : ", ") + std::string(label);
        }
        fail(join(where, key), "is '" + value + "', allowed: " + allowed);
    }

    Vec2 point(const json& v, const std::string& path) const {
        if (!v.is_array() || v.size() != 2) fail(path, "must be a point [x, y]");
        return Vec2{{static_cast<float>(numberValue(v[0], path + "[0]", -kMaxWorldSize, kMaxWorldSize, "px")),
                     static_cast<float>(numberValue(v[1], path + "[1]", -kMaxWorldSize, kMaxWorldSize, "px"))}};
    }

    std::vector<Vec2> path(const json& obj, const std::string& where, std::size_t minPoints) const {
        const std::string p = join(where, "path");
        if (!obj.contains("path")) fail(p, "is missing");
        const json& arr = obj.at("path");
        if (!arr.is_array() || arr.size() < minPoints)
            fail(p, "must be a list of at least " + std::to_string(minPoints) +
                        (minPoints == 1 ? " point [x, y]" : " points [x, y]"));
        std::vector<Vec2> out;
        for (std::size_t i = 0; i < arr.size(); ++i) out.push_back(point(arr[i], p + "[" + std::to_string(i) + "]"));
        return out;
    }

    static std::string join(const std::string& where, const std::string& key) {
        return where.empty() ? key : where + "." + key;
    }
    static std::string item(const std::string& list, std::size_t i) { return list + "[" + std::to_string(i) + "]"; }

private:
    std::string source_;
};

void readParams(const Checker& c, const json& obj, Params& params) {
    if (!obj.is_object()) c.fail("params", "must be an object of parameter values");
    for (const auto& [key, value] : obj.items()) {
        const std::string path = "params." + key;
        const auto id = findParam(key);
        if (!id) c.fail(path, "is not a parameter (run 'mirofish presets --params' for the list)");
        const ParamDef& d = paramDef(*id);
        if (d.isChoice()) {
            const auto labels = d.choiceLabels();
            if (!value.is_string()) c.fail(path, "must be one of " + d.rangeText());
            const auto it = std::find(labels.begin(), labels.end(), value.get<std::string>());
            if (it == labels.end()) c.fail(path, "is '" + value.get<std::string>() + "', allowed: " + d.rangeText());
            params.set(*id, static_cast<float>(it - labels.begin()));
            continue;
        }
        if (!value.is_number())
            c.fail(path, "must be a number from " + d.rangeText() + ", not " + std::string(value.type_name()));
        const std::string problem = validateParam(*id, value.get<double>());
        if (!problem.empty()) c.fail(path, problem);
        params.set(*id, static_cast<float>(value.get<double>()));
    }
}

std::vector<ModRoute> readRoutes(const Checker& c, const json& list) {
    if (!list.is_array()) c.fail("audioRoutes", "must be a list");
    std::vector<ModRoute> routes;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string w = Checker::item("audioRoutes", i);
        const json& obj = list[i];
        c.allowOnly(obj, w, {"source", "band", "target", "min", "max", "curve", "amount", "invert"});
        ModRoute r;
        r.source = c.choice<ModSource>(obj, w, "source",
                                       {{"low", ModSource::Low},
                                        {"mid", ModSource::Mid},
                                        {"high", ModSource::High},
                                        {"band", ModSource::Band},
                                        {"level", ModSource::Level},
                                        {"onset", ModSource::Onset},
                                        {"beatPhase", ModSource::BeatPhase}});
        if (r.source == ModSource::Band) {
            const double band = c.number(obj, w, "band", 0, static_cast<double>(kMaxModBand));
            if (band != std::floor(band)) c.fail(Checker::join(w, "band"), "must be a whole number");
            r.band = static_cast<std::size_t>(band);
        } else if (obj.contains("band")) {
            c.fail(Checker::join(w, "band"), "is only used with \"source\": \"band\"");
        }
        const std::string target = c.text(obj, w, "target");
        const auto id = findParam(target);
        if (!id)
            c.fail(Checker::join(w, "target"),
                   "is '" + target + "', not a parameter (run 'mirofish presets --params' for the list)");
        const ParamDef& d = paramDef(*id);
        if (d.isChoice())
            c.fail(Checker::join(w, "target"), "is '" + target + "', a choice, which cannot be modulated");
        r.target = *id;
        r.min = c.number(obj, w, "min", d.min, d.max, d.unit);
        r.max = c.number(obj, w, "max", d.min, d.max, d.unit);
        if (obj.contains("curve"))
            r.curve = c.choice<ModCurve>(obj, w, "curve",
                                         {{"log", ModCurve::Log}, {"linear", ModCurve::Linear}, {"exp", ModCurve::Exp}});
        if (obj.contains("amount")) r.amount = c.number(obj, w, "amount", 0, kMaxModAmount);
        if (obj.contains("invert")) {
            if (!obj["invert"].is_boolean()) c.fail(Checker::join(w, "invert"), "must be true or false");
            r.invert = obj["invert"].get<bool>();
        }
        if (const std::string problem = validateRoute(r); !problem.empty()) c.fail(w, problem);
        routes.push_back(r);
    }
    return routes;
}

// A value as an error message quotes it: a list or an object by its kind
// (written out, one nested 200 000 deep overflowed the stack), a long
// string cut short.
std::string briefly(const json& v) {
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    const std::string text = v.dump();
    return text.size() <= 40 ? text : text.substr(0, 37) + "...";
}

Preset readPreset(const Checker& c, const json& root) {
    // What the file is before its keys: another program's JSON, or a preset
    // of a newer MiroFish with keys of its own, is told so, not that a key
    // is unknown.
    if (!root.is_object()) c.fail("", "must be an object");
    if (!root.contains("format") || root["format"] != kFormat)
        c.fail("", "is not a MiroFish preset (its \"format\" must be \"" + std::string(kFormat) + "\")");
    if (!root.contains("version")) c.fail("version", "is missing");
    if (!root["version"].is_number())
        c.fail("version", "must be a number, not " + briefly(root["version"]) + "; this MiroFish reads version " +
                              std::to_string(kPresetVersion));
    if (root["version"] != kPresetVersion)
        c.fail("version", "is " + root["version"].dump() + "; this MiroFish reads version " +
                              std::to_string(kPresetVersion));
    c.allowOnly(root, "",
                {"format", "version", "name", "description", "world", "fish", "seed", "params", "fields", "predators",
                 "obstacles", "leader", "audioRoutes"});

    Preset p;
    p.name = c.text(root, "", "name");
    if (onlySpaces(p.name)) c.fail("name", "must not be empty or only spaces");
    if (const std::string why = controlCharacterIn(p.name, false); !why.empty()) c.fail("name", why);
    if (root.contains("description")) p.description = c.text(root, "", "description");
    if (const std::string why = controlCharacterIn(p.description, true); !why.empty()) c.fail("description", why);
    Scene& s = p.scene;
    if (root.contains("world")) {
        c.allowOnly(root["world"], "world", {"width", "height"});
        s.width = static_cast<float>(c.number(root["world"], "world", "width", 1, kMaxWorldSize, "px"));
        s.height = static_cast<float>(c.number(root["world"], "world", "height", 1, kMaxWorldSize, "px"));
    }
    if (root.contains("fish")) {
        const double fish = c.number(root, "", "fish", 1, kMaxFish);
        if (fish != std::floor(fish)) c.fail("fish", "must be a whole number");
        s.fishCount = static_cast<std::uint32_t>(fish);
    }
    if (root.contains("seed")) {
        const json& seed = root["seed"];
        const bool digits = seed.is_number_unsigned() || (seed.is_number_integer() && seed.get<long long>() >= 0);
        // 7.0 or 1e3, as a script may write a whole number: exact up to 2^53.
        constexpr double kExactUpTo = 9007199254740992.0;
        const double decimal = seed.is_number_float() ? seed.get<double>() : -1.0;
        // Plain digits past the largest seed are read as a decimal too, and
        // so is 18446744073709551615.0, rounded up to 2^64: either it is.
        constexpr double kBeyondSeeds = 18446744073709551616.0;
        if (decimal >= kBeyondSeeds)
            c.fail("seed", "is past the largest seed, 18446744073709551615, or that number written with a decimal point "
                           "or an exponent; write a whole number up to 18446744073709551615 in plain digits");
        const bool wholeDecimal = decimal >= 0 && std::floor(decimal) == decimal;
        if (wholeDecimal && decimal > kExactUpTo)
            c.fail("seed", "is written with a decimal point or an exponent, which keeps a whole number exact only up to "
                           "9007199254740992; write it in plain digits");
        // "7" in quotes read as a whole number in range to the eye: say what it is.
        if (!digits && !wholeDecimal)
            c.fail("seed", "must be a whole number from 0 to 18446744073709551615, not " +
                               (seed.is_string() ? "the text " + briefly(seed) : briefly(seed)));
        s.seed = digits ? seed.get<std::uint64_t>() : static_cast<std::uint64_t>(decimal);
    }
    if (root.contains("params")) readParams(c, root["params"], s.params);

    if (root.contains("fields")) {
        const json& list = root["fields"];
        if (!list.is_array()) c.fail("fields", "must be a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string w = Checker::item("fields", i);
            c.allowOnly(list[i], w, {"kind", "x", "y", "radius", "strength"});
            ForceField f;
            f.kind = c.choice<FieldKind>(list[i], w, "kind",
                                         {{"attract", FieldKind::Attract}, {"repel", FieldKind::Repel}, {"vortex", FieldKind::Vortex}});
            f.position = Vec2{{static_cast<float>(c.number(list[i], w, "x", -kMaxWorldSize, kMaxWorldSize, "px")),
                               static_cast<float>(c.number(list[i], w, "y", -kMaxWorldSize, kMaxWorldSize, "px"))}};
            f.radius = static_cast<float>(c.number(list[i], w, "radius", 1, kMaxWorldSize, "px"));
            f.strength = static_cast<float>(c.number(list[i], w, "strength", 0, 100));
            s.fields.push_back(f);
        }
    }
    if (root.contains("predators")) {
        const json& list = root["predators"];
        if (!list.is_array()) c.fail("predators", "must be a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string w = Checker::item("predators", i);
            c.allowOnly(list[i], w, {"behaviour", "x", "y", "path"});
            Predator pr;
            pr.behaviour = c.choice<PredatorBehaviour>(
                list[i], w, "behaviour", {{"chase", PredatorBehaviour::ChaseNearest}, {"path", PredatorBehaviour::FollowPath}});
            if (pr.behaviour == PredatorBehaviour::FollowPath) {
                pr.path = c.path(list[i], w, 2);
                pr.position = pr.path.front();
            } else if (list[i].contains("path")) {
                c.fail(Checker::join(w, "path"), "is only used with \"behaviour\": \"path\"");
            }
            // A start needs both: "y" alone was dropped without a word.
            if (list[i].contains("x") != list[i].contains("y"))
                c.fail(Checker::join(w, list[i].contains("x") ? "y" : "x"), "is missing (a start gives both x and y)");
            if (list[i].contains("x") || pr.behaviour == PredatorBehaviour::ChaseNearest) {
                pr.position = Vec2{{static_cast<float>(c.number(list[i], w, "x", -kMaxWorldSize, kMaxWorldSize, "px")),
                                    static_cast<float>(c.number(list[i], w, "y", -kMaxWorldSize, kMaxWorldSize, "px"))}};
            }
            s.predators.push_back(std::move(pr));
        }
    }
    if (root.contains("obstacles")) {
        const json& list = root["obstacles"];
        if (!list.is_array()) c.fail("obstacles", "must be a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string w = Checker::item("obstacles", i);
            c.allowOnly(list[i], w, {"x", "y", "radius"});
            Obstacle o;
            o.centre = Vec2{{static_cast<float>(c.number(list[i], w, "x", -kMaxWorldSize, kMaxWorldSize, "px")),
                             static_cast<float>(c.number(list[i], w, "y", -kMaxWorldSize, kMaxWorldSize, "px"))}};
            o.radius = static_cast<float>(c.number(list[i], w, "radius", 1, kMaxWorldSize, "px"));
            s.obstacles.push_back(o);
        }
    }
    if (root.contains("leader")) {
        c.allowOnly(root["leader"], "leader", {"path"});
        Leader l;
        l.path = c.path(root["leader"], "leader", 1);
        l.position = l.path.front();
        s.leader = std::move(l);
    }
    if (root.contains("audioRoutes")) p.routes = readRoutes(c, root["audioRoutes"]);
    return p;
}

ordered_json pointJson(Vec2 p) { return ordered_json::array({shortestDecimal(p[0]), shortestDecimal(p[1])}); }

ordered_json pathJson(const std::vector<Vec2>& path) {
    ordered_json arr = ordered_json::array();
    for (Vec2 p : path) arr.push_back(pointJson(p));
    return arr;
}

// nlohmann's messages start with "[json.exception.parse_error.101] "; keep the human part.
std::string humanPart(const json::exception& e) {
    std::string what = e.what();
    if (const auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
    return what;
}

// The parser's place as an editor shows it: the line and the column (from 1)
// of the last character read, counted in bytes. The parser's own starts a
// new line at a line break it reads, so a line break inside a string was
// "line 6, column 0", a place that is no character.
// "line L, column C" of the byte at offset `at` of `text`, both from 1.
std::string placeOf(std::string_view text, std::size_t at) {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const std::size_t lineStart = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
    const std::size_t column = lineStart == std::string_view::npos ? at + 1 : at - lineStart;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string parsePlace(const json::parse_error& e, std::string_view text) {
    std::string what = humanPart(e);
    const std::string parserPlace = "at line ";
    const std::size_t start = what.find(parserPlace);
    const std::size_t end = what.find(':', start);
    if (e.byte == 0 || e.byte > text.size() || start == std::string::npos || end == std::string::npos)
        return wholeCharacters(what);
    return wholeCharacters(what.substr(0, start) + "at " + placeOf(text, e.byte - 1) + what.substr(end));
}

// Zero bytes are in no JSON text: a write cut short by a crash or a power
// cut leaves them (a whole file of them, or a tail).
constexpr const char* kDamagedByZeroBytes =
    " (zero bytes, which no JSON text holds, as a write cut short by a crash or a power cut leaves: the file is damaged)";

// Saved in an encoding other than UTF-8, said so; empty for UTF-8.
std::string encodingHint(std::string_view text) {
    // Saved as UTF-32 (its byte-order mark: a zero pair, and FE FF, or FF FE
    // then a zero pair; without one, three zero bytes beside an ASCII
    // character) or as UTF-16 (Windows Notepad's "Unicode"): a byte-order
    // mark, or a zero byte beside every ASCII character. A file that starts
    // with zero bytes alone (a power cut) is neither.
    using namespace std::string_view_literals;
    const std::string_view head = text.substr(0, 4);
    if (head.find_first_not_of('\0') != std::string_view::npos) {
        if (text.starts_with("\xFF\xFE\0\0"sv) || text.starts_with("\0\0\xFE\xFF"sv) ||
            (head.size() == 4 && (head.substr(1) == "\0\0\0"sv || head.substr(0, 3) == "\0\0\0"sv)))
            return " (the file is UTF-32: save it as UTF-8)";
        if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF") || head.find('\0') != std::string_view::npos)
            return " (the file is UTF-16, as Notepad's \"Unicode\" saves it: save it as UTF-8)";
    }
    return {};
}

// What a hand-written preset most often gets wrong, said where the parser
// stopped at it: its message names the place, not the rule. `byte` counts
// from 1 to the last character read; `message` is the parser's. Inside a
// string (a bad escape: "invalid string") only the file's encoding and the
// string's own slips apply.
std::string jsonSlipHint(std::string_view text, std::size_t byte, std::string_view message) {
    if (byte == 0 || byte > text.size()) return {};
    if (std::string encoding = encodingHint(text); !encoding.empty()) return encoding;
    if (message.find("invalid string") != std::string_view::npos) {
        // The parser's words send a beginner the wrong way: a line break is
        // to be escaped, where a quote is missing (or a long line was
        // wrapped by hand).
        if (message.find("U+000A") != std::string_view::npos || message.find("U+000D") != std::string_view::npos)
            return " (a line break inside a string: close the string before the line ends, or write \\n for a "
                   "line break)";
        // A Windows path: "C:\Users" and "C:\users" fail as different escapes.
        if (message.find("after backslash") != std::string_view::npos ||
            message.find("'\\u' must be followed") != std::string_view::npos)
            return " (a backslash in a string starts an escape such as \\n: write \\\\ for a backslash itself)";
        // "Café" saved as Latin-1 (Windows' "ANSI"): é is one byte no UTF-8 text holds.
        if (message.find("ill-formed UTF-8 byte") != std::string_view::npos)
            return " (the file is not UTF-8, as an editor's \"ANSI\" or Latin-1 saves it: save it as UTF-8)";
        return {};
    }
    const std::size_t at = byte - 1;
    const std::string_view from = text.substr(at);
    // Python's spellings.
    for (const auto& [python, json] : {std::pair{"True", "true"}, std::pair{"False", "false"}, std::pair{"None", "null"}})
        if (from.starts_with(python)) return std::string(" (JSON writes ") + json + ", not " + python + ")";
    if (from.starts_with("//") || from.starts_with("/*") || from.starts_with("#"))
        return " (JSON has no comments: remove it)";
    if (from.starts_with("'")) return " (JSON strings take double quotes, not single ones)";
    // Pasted from a web page or a word processor.
    for (const std::string_view curly : {"\u201C", "\u201D", "\u2018", "\u2019"})
        if (from.starts_with(curly)) return " (curly quotes are no JSON quotes: type straight double quotes \")";
    const std::size_t before = at == 0 ? std::string_view::npos : text.find_last_not_of(" \t\r\n", at - 1);
    const bool afterComma = before != std::string_view::npos && text[before] == ',';
    if ((from.starts_with("}") || from.starts_with("]")) && afterComma)
        return " (JSON allows no comma after the last item: remove the one before it)";
    if (from.starts_with(",") && afterComma) return " (two commas in a row: remove one)";
    if (from.starts_with("NaN") || from.starts_with("Infinity")) return " (JSON has no NaN or Infinity: write a number)";
    // "80,5": a decimal comma, as many languages write numbers. The parser
    // took the comma for one between items, and the 5 for where a key goes.
    const auto digitAt = [&](std::size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0; };
    if (message.find("parsing object key") != std::string_view::npos &&
        message.find("unexpected number literal") != std::string_view::npos && afterComma && before + 1 == at &&
        before > 0 && digitAt(before - 1) && digitAt(at)) {
        std::size_t whole = before;
        while (whole > 0 && digitAt(whole - 1)) --whole;
        std::size_t end = at;
        while (digitAt(end)) ++end;
        const std::string_view integer = text.substr(whole, before - whole), fraction = text.substr(at, end - at);
        return " (a decimal comma? JSON writes " + std::string(integer) + "." + std::string(fraction) + ", with a point)";
    }
    if (message.find("parsing object key") != std::string_view::npos &&
        message.find("invalid literal") != std::string_view::npos)
        return " (JSON keys take double quotes: \"fish\": 300)";
    // An item where the end of its list or object was expected: the comma
    // between it and the one before is missing (the parser's words,
    // "expected '}'", point to the wrong fix, and the place to the item after
    // the missing comma). Right after a closing quote it is a quote inside a
    // string ("Season "2"", "a ""b"""), which wants \" instead.
    if (message.find("; expected '}'") == std::string_view::npos &&
        message.find("; expected ']'") == std::string_view::npos)
        return {};
    std::size_t start = std::string_view::npos;  // where the unexpected item begins
    if (message.find("unexpected string literal") != std::string_view::npos) {
        start = at == 0 ? std::string_view::npos : text.rfind('"', at - 1);
        while (start != std::string_view::npos && start > 0 && text[start - 1] == '\\')
            start = start < 2 ? std::string_view::npos : text.rfind('"', start - 2);
    } else if (message.find("unexpected number literal") != std::string_view::npos) {
        start = text.find_last_not_of("0123456789.eE+-", at);
        start = start == std::string_view::npos ? 0 : start + 1;
        const auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
        const std::size_t end = std::min(text.find_first_not_of("0123456789.eE+-", start), text.size());
        const std::string_view item = text.substr(start, end - start);  // "0300", "-007", the "000" of "3 000"
        const std::size_t previous = start == 0 ? std::string_view::npos : text.find_last_not_of(" \t\r\n", start - 1);
        const bool afterNumber = previous != std::string_view::npos && previous + 1 < start && isDigit(text[previous]);
        const bool inObject = message.find("; expected '}'") != std::string_view::npos;
        // "1 080": thousands grouped by a space. In an object no comma mends
        // a second number, which would want a key; in a list it may be two.
        const std::size_t beforeFirst = afterNumber ? text.find_last_not_of("0123456789.eE+-", previous) : 0;
        const std::size_t firstStart = beforeFirst == std::string_view::npos ? 0 : beforeFirst + 1;
        const std::string_view first = afterNumber ? text.substr(firstStart, previous + 1 - firstStart) : "";
        const std::string_view firstDigits = first.substr(first.starts_with('-') ? 1 : 0);
        const bool groupsThousands = !firstDigits.empty() && firstDigits.size() <= 3 && firstDigits[0] != '0' &&
                                     std::all_of(firstDigits.begin(), firstDigits.end(), isDigit);
        if (groupsThousands && item.size() == 3 && std::all_of(item.begin(), item.end(), isDigit)) {
            return " (a number is written in one piece: " + std::string(first) + std::string(item) + ", not " +
                   std::string(first) + " " + std::string(item) +
                   (inObject ? ")" : "; or a comma is missing between two numbers)");
        }
        if (afterNumber && inObject) return " (a number is written in one piece, without spaces)";
        // "0300", "-007": the parser read the 0 as a number and stopped at the rest.
        const std::size_t sign = item.starts_with('-') ? 1 : 0;
        if (item.size() > sign + 1 && item[sign] == '0' && isDigit(item[sign + 1])) {
            std::size_t zeros = sign;
            while (zeros + 1 < item.size() && item[zeros] == '0' && isDigit(item[zeros + 1])) ++zeros;
            return " (JSON numbers take no leading zeros: write " + std::string(item.substr(0, sign)) +
                   std::string(item.substr(zeros)) + ", not " + std::string(item) + ")";
        }
    } else {
        for (const std::string_view item : {"'['", "'{'", "true literal", "false literal", "null literal"})
            if (message.find(std::string("unexpected ") + std::string(item)) != std::string_view::npos)
                start = item.front() == '\'' ? at : at + 1 - (item.starts_with("false") ? 5 : 4);
    }
    if (start != std::string_view::npos && start > 0 && start <= at) {
        const std::size_t previous = text.find_last_not_of(" \t\r\n", start - 1);
        if (previous != std::string_view::npos && !(previous == start - 1 && text[previous] == '"'))
            return " (a comma is missing before this item)";
    }
    return {};
}

// Builds the document as nlohmann's own parser does, and knows where it is
// ('predators[0].x', as the checks name it) and which keys each open object
// holds. A key given twice in one object is refused there: the parser would
// keep the last without a word ("fish": 10, "fish": 20 validated as 20
// fish). A parser callback did this before, but nlohmann's callback parser
// scans the whole list read so far each time an object in it ends, so a
// preset of 80 000 rocks took 49 s to read; this takes time in step with
// the file.
class PresetJsonReader : public nlohmann::detail::json_sax_dom_parser<json> {
public:
    PresetJsonReader(json& root, const std::string& source) : json_sax_dom_parser(root), source_(source) {}

    // Where the reader is: after a number too large for a double, its key.
    std::string keyPath() const {
        std::string path;
        for (const OpenContainer& open : open_)
            path += open.isArray ? "[" + std::to_string(open.index) + "]" : (path.empty() ? "" : ".") + open.key;
        return path;
    }
    // The first key given twice in one object, or empty.
    const std::string& repeated() const { return repeated_; }

    bool start_object(std::size_t elements) {
        open_.push_back({});
        return json_sax_dom_parser::start_object(elements);
    }
    bool key(std::string& name) {
        OpenContainer& object = open_.back();
        object.key = name;
        if (repeated_.empty() && !object.keys.insert(name).second) repeated_ = keyPath();
        return json_sax_dom_parser::key(name);
    }
    bool end_object() {
        closed();
        return json_sax_dom_parser::end_object();
    }
    bool start_array(std::size_t elements) {
        notAtTop();
        open_.push_back({.isArray = true});
        return json_sax_dom_parser::start_array(elements);
    }
    bool end_array() {
        closed();
        return json_sax_dom_parser::end_array();
    }
    bool null() { return scalar() && json_sax_dom_parser::null(); }
    bool boolean(bool value) { return scalar() && json_sax_dom_parser::boolean(value); }
    bool number_integer(json::number_integer_t value) {
        return scalar() && json_sax_dom_parser::number_integer(value);
    }
    bool number_unsigned(json::number_unsigned_t value) {
        return scalar() && json_sax_dom_parser::number_unsigned(value);
    }
    bool number_float(json::number_float_t value, const std::string& text) {
        return scalar() && json_sax_dom_parser::number_float(value, text);
    }
    bool string(std::string& value) { return scalar() && json_sax_dom_parser::string(value); }

private:
    struct OpenContainer {
        bool isArray = false;
        std::string key;             // an object's key last read
        std::set<std::string> keys;  // an object's keys so far
        std::size_t index = 0;       // an array's element being read
    };

    // Anything but an object at the top is no preset, said before the rest
    // is read: a 100 MB array in a preset folder took 27 s and 1.8 GB to
    // list, and again after every save in the editor.
    void notAtTop() const {
        if (open_.empty()) throw PresetError(source_ + ": must be an object");
    }
    bool scalar() {
        notAtTop();
        nextElement();
        return true;
    }
    void closed() {
        open_.pop_back();
        nextElement();
    }
    void nextElement() {
        if (!open_.empty() && open_.back().isArray) ++open_.back().index;
    }

    const std::string& source_;
    std::vector<OpenContainer> open_;
    std::string repeated_;
};

json parseJson(std::string_view text, const std::string& source) {
    json root;
    PresetJsonReader reader(root, source);
    // A zero byte, wherever the parser meets it: it took one for the end of
    // the text (what came after one was never read: "{...}\0junk" passed),
    // and inside a string asked to escape it, which sent the owner of a
    // damaged file the wrong way. Zero bytes where UTF-16 or UTF-32 has
    // them are that encoding's, which the parser's error names.
    const auto damaged = [&](std::size_t zero) {
        return PresetError(source + ": not valid JSON: a zero byte at " + placeOf(text, zero) + kDamagedByZeroBytes);
    };
    try {
        json::sax_parse(text.begin(), text.end(), &reader);
        if (const std::size_t zero = text.find('\0'); zero != std::string_view::npos) throw damaged(zero);
        if (!reader.repeated().empty())
            throw PresetError(source + ": the key '" + reader.repeated() +
                              "' is given twice in one object; give each key once");
        return root;
    } catch (const json::parse_error& e) {
        if (e.byte > 0 && e.byte <= text.size() && text[e.byte - 1] == '\0' && encodingHint(text).empty())
            throw damaged(e.byte - 1);
        throw PresetError(source + ": not valid JSON: " + parsePlace(e, text) + jsonSlipHint(text, e.byte, e.what()));
    } catch (const json::out_of_range& e) {
        // A number beyond a double's range, such as 1e400.
        const std::string where = reader.keyPath();
        throw PresetError(source + ": number out of range" + (where.empty() ? "" : " in '" + where + "'") + " (" +
                          humanPart(e) + ")");
    }
}

}  // namespace

Preset parsePreset(std::string_view text, const std::string& source) {
    const json root = parseJson(text, source);
    try {
        return readPreset(Checker(source), root);
    } catch (const json::exception& e) {
        // readPreset checks each value's type before reading it; one it missed
        // would escape as nlohmann's exception, which no caller expects.
        throw PresetError(source + ": " + humanPart(e));
    }
}

Preset loadPreset(const std::filesystem::path& file) {
    if (const std::string what = notARegularFile(file); !what.empty())
        throw PresetError(file.string() + ": " + what + ", not a preset file");
    // Refused unread: parsing a file this large takes seconds, and the
    // editor reads every preset of its folders after each save.
    std::error_code ec;
    if (const std::uintmax_t bytes = std::filesystem::file_size(file, ec); !ec && bytes > kLargestPresetBytes)
        throw PresetError(file.string() + ": " + std::to_string(bytes) + " bytes, too large for a preset file (at most " +
                          std::to_string(kLargestPresetBytes >> 20) + " MB, " + std::to_string(kLargestPresetBytes) +
                          " bytes)");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw PresetError(file.string() + ": cannot open the preset file (" +
                          unreadableBecause(file, std::strerror(errno)) + ")");
    std::stringstream buf;
    buf << in.rdbuf();
    return parsePreset(buf.str(), file.string());
}

// Every float is written as the shortest decimal that reads back as it
// (shortestDecimal): 1.6 where 1.6 was typed, and all the digits a slider or
// a drag gave, so a saved preset loads back bit for bit.
std::string presetToJson(const Preset& preset) {
    const Scene& s = preset.scene;
    ordered_json root;
    root["format"] = kFormat;
    root["version"] = kPresetVersion;
    root["name"] = preset.name;
    root["description"] = preset.description;
    root["world"] = {{"width", shortestDecimal(s.width)}, {"height", shortestDecimal(s.height)}};
    root["fish"] = s.fishCount;
    root["seed"] = s.seed;
    ordered_json params = ordered_json::object();
    const Params defaults;
    for (const ParamDef& d : paramRegistry()) {
        const float v = s.params.get(d.id);
        if (v == defaults.get(d.id)) continue;
        if (d.isChoice())
            params[std::string(d.key)] = std::string(d.choiceLabels().at(static_cast<std::size_t>(v)));
        else
            params[std::string(d.key)] = shortestDecimal(v);
    }
    root["params"] = params;
    static const char* fieldKinds[] = {"attract", "repel", "vortex"};
    for (const ForceField& f : s.fields)
        root["fields"].push_back({{"kind", fieldKinds[static_cast<int>(f.kind)]},
                                  {"x", shortestDecimal(f.position[0])},
                                  {"y", shortestDecimal(f.position[1])},
                                  {"radius", shortestDecimal(f.radius)},
                                  {"strength", shortestDecimal(f.strength)}});
    for (const Predator& p : s.predators) {
        ordered_json j;
        j["behaviour"] = p.behaviour == PredatorBehaviour::ChaseNearest ? "chase" : "path";
        // A path predator starts at its first waypoint unless told otherwise.
        if (p.behaviour == PredatorBehaviour::ChaseNearest || p.path.empty() || p.position != p.path.front()) {
            j["x"] = shortestDecimal(p.position[0]);
            j["y"] = shortestDecimal(p.position[1]);
        }
        if (p.behaviour == PredatorBehaviour::FollowPath) j["path"] = pathJson(p.path);
        root["predators"].push_back(j);
    }
    for (const Obstacle& o : s.obstacles)
        root["obstacles"].push_back({{"x", shortestDecimal(o.centre[0])},
                                     {"y", shortestDecimal(o.centre[1])},
                                     {"radius", shortestDecimal(o.radius)}});
    if (s.leader) root["leader"] = {{"path", pathJson(s.leader->path)}};
    if (preset.routes) root["audioRoutes"] = ordered_json::array();
    for (const ModRoute& r : preset.routes.value_or(std::vector<ModRoute>{})) {
        ordered_json j;
        j["source"] = std::string(modSourceKey(r.source));
        if (r.source == ModSource::Band) j["band"] = r.band;
        j["target"] = std::string(paramDef(r.target).key);
        j["min"] = r.min;
        j["max"] = r.max;
        j["curve"] = std::string(modCurveKey(r.curve));
        j["amount"] = r.amount;
        j["invert"] = r.invert;
        root["audioRoutes"].push_back(j);
    }
    return root.dump(2) + "\n";
}

Preset presetAsSaved(const Preset& preset) { return parsePreset(presetToJson(preset), preset.name); }

void savePreset(const Preset& preset, const std::filesystem::path& file) {
    // A file that loading would refuse is not written.
    if (const std::string problem = presetAudioRoutes(preset).validate(); !problem.empty())
        throw PresetError(file.string() + ": audio " + problem);
    if (const std::string why = controlCharacterIn(preset.name, false); !why.empty())
        throw PresetError(file.string() + ": the name " + why);
    if (const std::string why = controlCharacterIn(preset.description, true); !why.empty())
        throw PresetError(file.string() + ": the description " + why);
    const std::string text = presetToJson(preset);
    try {
        writeFileAtomically(file, [&](std::ostream& out) { out << text; });
    } catch (const std::runtime_error& e) {
        throw PresetError(e.what());
    }
}

std::vector<PresetInfo> listPresets(const std::vector<std::filesystem::path>& dirs, std::vector<std::string>* problems) {
    std::map<std::string, PresetInfo> found;
    // A file that cannot be read still takes its id, as resolvePreset finds
    // it first: a later folder's preset of that id would be listed but never open.
    std::map<std::string, std::filesystem::path> broken;
    // A folder named twice (your own in $MIROFISH_PRESETS too, or through a
    // link) is read once: read again, each broken file in it was said to
    // hide itself, "rename it to open this one".
    std::set<std::filesystem::path> read;
    for (const auto& dir : dirs) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) continue;
        std::filesystem::path real = std::filesystem::canonical(dir, ec);
        if (ec) real = dir;  // not to be worked out (a path too long): as given
        if (!read.insert(real).second) continue;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().extension() != ".json") continue;
            const std::string id = entry.path().stem().string();
            if (found.contains(id)) continue;
            if (const auto first = broken.find(id); first != broken.end()) {
                if (problems)
                    problems->push_back(entry.path().string() + ": " + first->second.string() + " has the same id '" +
                                        id + "', comes first and cannot be read; mend or rename it to open this one");
                continue;
            }
            // Not a file (a folder, a link to nothing, a FIFO): resolvePreset
            // passes over it to a later folder's preset of that id, and so
            // does the list, which said that preset could not be opened.
            const bool file = std::filesystem::is_regular_file(entry.path(), ec);
            try {
                const Preset p = loadPreset(entry.path());
                found[id] = PresetInfo{id, p.name, p.description, entry.path()};
            } catch (const PresetError& e) {
                if (file) broken[id] = entry.path();
                if (problems) problems->push_back(e.what());
            }
        }
    }
    std::vector<PresetInfo> out;
    for (auto& [id, info] : found) out.push_back(std::move(info));
    return out;
}

std::optional<std::filesystem::path> resolvePreset(const std::string& nameOrFile,
                                                   const std::vector<std::filesystem::path>& dirs) {
    std::error_code ec;
    const bool bare = nameOrFile.find('/') == std::string::npos;
    // A preset's file name as `presets` and the folders show it ("gentle-cruise.json").
    const bool fileName = bare && nameOrFile.ends_with(".json");
    // A bare id means the preset before a file of that name here: a state
    // saved as "gentle-cruise" had hidden the default preset. A path, or a
    // FILE.json (a copy to edit), means the file first.
    const bool idFirst = bare && !fileName;
    const auto here = [&]() -> std::optional<std::filesystem::path> {
        if (std::filesystem::is_regular_file(nameOrFile, ec)) return std::filesystem::path(nameOrFile);
        return std::nullopt;
    };
    // A path is that file alone: the preset folders were searched for
    // "./NAME.json", and `--preset ./gentle-cruise` for a copy not here
    // opened the shipped preset in its place.
    if (!bare) return here();
    if (!idFirst)
        if (auto file = here()) return file;
    for (const auto& dir : dirs) {
        if (const auto id = dir / (nameOrFile + ".json"); std::filesystem::is_regular_file(id, ec)) return id;
        if (const auto named = dir / nameOrFile; fileName && std::filesystem::is_regular_file(named, ec)) return named;
    }
    return idFirst ? here() : std::nullopt;
}

}  // namespace mirofish

namespace mirofish {
ModulationMatrix presetAudioRoutes(const Preset& preset) {
    return preset.routes ? ModulationMatrix{*preset.routes} : defaultRoutes();
}
}  // namespace mirofish
