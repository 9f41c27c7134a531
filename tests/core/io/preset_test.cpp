// Presets: JSON files that round-trip, that are refused with an error naming
// the file, the key and what is allowed when they are wrong, and that are
// saved with only what a person wants to read.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "io/preset.hpp"
#include "io/printable_text.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;
namespace fs = std::filesystem;

namespace {

Preset everythingPreset() {
    Preset p;
    p.name = "Everything";
    p.description = "A preset with one of everything, \"quoted\" and unicode: fisch\u00e9s";
    Scene& s = p.scene;
    s.width = 1600;
    s.height = 900;
    s.fishCount = 1234;
    s.seed = 18446744073709551615ull;  // the largest seed survives JSON
    s.params.set(ParamId::MaxSpeed, 210.5f);
    s.params.set(ParamId::SeparationWeight, 1.6f);
    s.params.set(ParamId::FovHalfAngle, 95.0f);
    s.params.set(ParamId::Noise, 0.03f);
    s.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    s.fields.push_back(ForceField{0, Vec2{{100, 200.5f}}, 150, 2.5f, FieldKind::Vortex});
    s.fields.push_back(ForceField{0, Vec2{{-50, 3}}, 10, 0, FieldKind::Repel});
    s.predators.push_back(Predator{Vec2{{10, 20}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    s.predators.push_back(
        Predator{Vec2{{1, 2}}, Vec2{}, PredatorBehaviour::FollowPath, {Vec2{{1, 2}}, Vec2{{300, 400}}, Vec2{{5, 6}}}, 0});
    // One that starts away from its path ("x" and "y" beside "path").
    s.predators.push_back(
        Predator{Vec2{{150, 250}}, Vec2{}, PredatorBehaviour::FollowPath, {Vec2{{1, 2}}, Vec2{{300, 400}}}, 0});
    s.obstacles.push_back(Obstacle{Vec2{{800, 450}}, 75});
    s.leader = Leader{{Vec2{{100, 100}}, Vec2{{1500, 800}}}, Vec2{{100, 100}}, 0};
    return p;
}

void requireSameScene(const Scene& a, const Scene& b) {
    REQUIRE(a.width == b.width);
    REQUIRE(a.height == b.height);
    REQUIRE(a.fishCount == b.fishCount);
    REQUIRE(a.seed == b.seed);
    for (const ParamDef& d : paramRegistry()) {
        INFO(d.key);
        REQUIRE(a.params.get(d.id) == b.params.get(d.id));
    }
    REQUIRE(a.fields.size() == b.fields.size());
    for (std::size_t i = 0; i < a.fields.size(); ++i) {
        REQUIRE(a.fields[i].position == b.fields[i].position);
        REQUIRE(a.fields[i].radius == b.fields[i].radius);
        REQUIRE(a.fields[i].strength == b.fields[i].strength);
        REQUIRE(a.fields[i].kind == b.fields[i].kind);
    }
    REQUIRE(a.predators.size() == b.predators.size());
    for (std::size_t i = 0; i < a.predators.size(); ++i) {
        REQUIRE(a.predators[i].behaviour == b.predators[i].behaviour);
        REQUIRE(a.predators[i].position == b.predators[i].position);
        REQUIRE(a.predators[i].path == b.predators[i].path);
    }
    REQUIRE(a.obstacles.size() == b.obstacles.size());
    for (std::size_t i = 0; i < a.obstacles.size(); ++i) {
        REQUIRE(a.obstacles[i].centre == b.obstacles[i].centre);
        REQUIRE(a.obstacles[i].radius == b.obstacles[i].radius);
    }
    REQUIRE(a.leader.has_value() == b.leader.has_value());
    if (a.leader) {
        REQUIRE(a.leader->path == b.leader->path);
        REQUIRE(a.leader->position == b.leader->position);
    }
}

// A minimal valid preset with `extra` JSON members merged in (null removes).
std::string presetText(const nlohmann::json& extra) {
    nlohmann::json j = {{"format", "mirofish-preset"}, {"version", 1}, {"name", "Test"}};
    j.merge_patch(extra);
    return j.dump();
}

std::string errorOf(const std::string& text, const std::string& source = "my-preset.json") {
    try {
        parsePreset(text, source);
    } catch (const PresetError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("a preset written to JSON and read back gives the same scene") {
    const Preset p = everythingPreset();
    const Preset back = parsePreset(presetToJson(p), "round-trip");
    CHECK(back.name == p.name);
    CHECK(back.description == p.description);
    requireSameScene(back.scene, p.scene);
    // And the text is stable: writing the re-read preset gives the same file.
    CHECK(presetToJson(back) == presetToJson(p));
}

TEST_CASE("a preset saved with what sliders and drags give loads back bit for bit") {
    // A slider position (log scales included) or a dragged object is any
    // float; saved with six digits, it came back a little off, and the
    // saved preset rendered another school than the one in the editor.
    std::mt19937 random(17);
    std::uniform_real_distribution<double> position(0.0, 1.0);
    Preset p;
    p.name = "Dragged";
    for (const ParamDef& d : paramRegistry())
        if (!d.isChoice()) p.scene.params.set(d.id, static_cast<float>(fromNormalized(d, position(random))));
    p.scene.width = 1283.3271f;
    p.scene.height = 719.90137f;
    p.scene.obstacles.push_back(Obstacle{Vec2{{312.45678f, 101.00391f}}, 47.123457f});
    p.scene.predators.push_back(Predator{Vec2{{611.73431f, 98.765434f}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    const Preset back = parsePreset(presetToJson(p), "round-trip");
    for (const ParamDef& d : paramRegistry()) {
        INFO(d.key << " " << p.scene.params.get(d.id));
        CHECK(back.scene.params.get(d.id) == p.scene.params.get(d.id));
    }
    requireSameScene(back.scene, p.scene);
    // What was typed stays as typed.
    Preset typed;
    typed.scene.params.set(ParamId::MaxSpeed, 1.6f);
    CHECK_THAT(presetToJson(typed), Catch::Contains("\"maxSpeed\": 1.6\n") || Catch::Contains("\"maxSpeed\": 1.6,"));
}

TEST_CASE("every shipped preset loads and round-trips") {
    std::vector<std::string> problems;
    const auto presets = listPresets({MIROFISH_PRESET_DIR}, &problems);
    CHECK(problems.empty());
    REQUIRE(presets.size() >= 5);
    for (const PresetInfo& info : presets) {
        INFO(info.file);
        const Preset p = loadPreset(info.file);
        CHECK_FALSE(p.name.empty());
        CHECK_FALSE(p.description.empty());
        requireSameScene(parsePreset(presetToJson(p), "again").scene, p.scene);
    }
}

TEST_CASE("saving writes only what differs from the defaults, and loads back") {
    TempDir dir;
    Preset p;
    p.name = "Sparse";
    p.scene.params.set(ParamId::MaxSpeed, 200.0f);
    savePreset(p, dir / "sparse.json");
    const nlohmann::json j = nlohmann::json::parse(readText(dir / "sparse.json"));
    CHECK(j["params"].size() == 1);
    CHECK(j["params"]["maxSpeed"] == 200.0);
    for (const char* empty : {"fields", "predators", "obstacles", "leader"}) CHECK_FALSE(j.contains(empty));
    for (const char* needed : {"format", "version", "name", "world", "fish", "seed"}) CHECK(j.contains(needed));
    // Typed values stay readable: 1.1 rather than 1.100000023841858.
    p.scene.params.set(ParamId::CohesionWeight, 1.1f);
    CHECK_THAT(presetToJson(p), Catch::Contains("\"cohesionWeight\": 1.1\n") ||
                                    Catch::Contains("\"cohesionWeight\": 1.1,"));
    // A choice is written as its label.
    p.scene.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    CHECK_THAT(presetToJson(p), Catch::Contains("\"boundaryMode\": \"wrap\""));
    const Preset back = loadPreset(dir / "sparse.json");
    CHECK(back.scene.params.get(ParamId::MaxSpeed) == 200.0f);
    CHECK(back.scene.params.get(ParamId::CohesionWeight) == Params{}.get(ParamId::CohesionWeight));
    // No temporary file left beside it.
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 1);
}

TEST_CASE("missing parameters take their defaults") {
    const Preset p = parsePreset(presetText({{"params", {{"maxSpeed", 99}}}}), "x");
    const Params defaults;
    for (const ParamDef& d : paramRegistry()) {
        if (d.id == ParamId::MaxSpeed) continue;
        CHECK(p.scene.params.get(d.id) == defaults.get(d.id));
    }
    CHECK(p.scene.params.get(ParamId::MaxSpeed) == 99.0f);
}

TEST_CASE("a bad preset is refused with an error naming the file, the key and what is allowed") {
    SECTION("an unknown key") {
        const std::string msg = errorOf(presetText({{"colour", "blue"}}));
        CHECK_THAT(msg, Catch::Contains("my-preset.json"));
        CHECK_THAT(msg, Catch::Contains("'colour'"));
        CHECK_THAT(msg, Catch::Contains("allowed: format, version, name"));
    }
    SECTION("an unknown parameter") {
        const std::string msg = errorOf(presetText({{"params", {{"speed", 3}}}}));
        CHECK_THAT(msg, Catch::Contains("my-preset.json"));
        CHECK_THAT(msg, Catch::Contains("params.speed"));
        CHECK_THAT(msg, Catch::Contains("not a parameter"));
    }
    SECTION("an unknown key inside a list item") {
        const std::string msg = errorOf(presetText(
            {{"obstacles", nlohmann::json::array({{{"x", 1}, {"y", 2}, {"radius", 3}, {"r", 3}}})}}));
        CHECK_THAT(msg, Catch::Contains("obstacles[0].r"));
        CHECK_THAT(msg, Catch::Contains("allowed: x, y, radius"));
    }
    SECTION("a wrong type") {
        const std::string msg = errorOf(presetText({{"params", {{"maxSpeed", "fast"}}}}));
        CHECK_THAT(msg, Catch::Contains("my-preset.json"));
        CHECK_THAT(msg, Catch::Contains("maxSpeed"));
        CHECK_THAT(msg, Catch::Contains("must be a number"));
        CHECK_THAT(msg, Catch::Contains("1 to 5000 px/s"));
        const std::string world = errorOf(presetText({{"world", {{"width", "wide"}, {"height", 100}}}}));
        CHECK_THAT(world, Catch::Contains("world.width"));
        CHECK_THAT(world, Catch::Contains("must be a number"));
        CHECK_THAT(world, Catch::Contains("1 to 1000000 px"));
        CHECK_THAT(errorOf(presetText({{"name", 5}})), Catch::Contains("'name' must be a string"));
    }
    SECTION("a value out of range") {
        const std::string msg = errorOf(presetText({{"params", {{"maxSpeed", 9000}}}}));
        CHECK_THAT(msg, Catch::Contains("my-preset.json"));
        CHECK_THAT(msg, Catch::Contains("maxSpeed"));
        CHECK_THAT(msg, Catch::Contains("9000"));
        CHECK_THAT(msg, Catch::Contains("1 to 5000 px/s"));
        CHECK_THAT(msg, Catch::Contains("'params.maxSpeed' is 9000"));  // where in the file, as for every other key
        CHECK_THAT(errorOf(presetText({{"fish", 0}})), Catch::Contains("'fish' is 0, outside the allowed range 1 to 2000000"));
        CHECK_THAT(errorOf(presetText({{"leader", {{"path", nlohmann::json::array()}}}})),
                   Catch::Contains("'leader.path' must be a list of at least 1 point [x, y]"));
        // Just past the limit, the value keeps the digits that tell it from the limit.
        CHECK_THAT(errorOf(presetText({{"params", {{"maxSpeed", 5000.0000001}}}})),
                   Catch::Contains("is 5000.0000001") && Catch::Contains("1 to 5000 px/s"));
        CHECK_THAT(errorOf(presetText({{"fish", 10.5}})), Catch::Contains("'fish' must be a whole number"));
        CHECK_THAT(errorOf(presetText({{"seed", -1}})), Catch::Contains("'seed' must be a whole number"));
        CHECK_THAT(errorOf(presetText({{"seed", 7.5}})), Catch::Contains("'seed' must be a whole number"));
        // In quotes it reads as a whole number in range to the eye: what it is, said.
        CHECK_THAT(errorOf(presetText({{"seed", "7"}})),
                   Catch::Contains("'seed' must be a whole number from 0 to 18446744073709551615, not the text \"7\""));
        CHECK_THAT(errorOf(presetText({{"seed", true}})), Catch::Contains("not true"));
        CHECK_THAT(errorOf(presetText({{"seed", 1e19}})), Catch::Contains("write it in plain digits"));
        // Past the largest seed, plain digits too are a number out of range, not a way of writing it.
        CHECK_THAT(errorOf(R"({"format": "mirofish-preset", "version": 1, "name": "S", "seed": 18446744073709551616})"),
                   Catch::Contains("'seed' is past the largest seed, 18446744073709551615"));
        CHECK_THAT(errorOf(presetText({{"seed", 1e20}})), Catch::Contains("'seed' is past the largest seed"));
        // A whole number as a script writes it (Python's 7.0) is one.
        CHECK(parsePreset(presetText({{"seed", 7.0}}), "s.json").scene.seed == 7);
        CHECK(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "S", "seed": 1e3})", "s.json").scene.seed == 1000);
        CHECK_THAT(errorOf(presetText({{"world", {{"width", 0}, {"height", 10}}}})),
                   Catch::Contains("'world.width' is 0"));
        CHECK_THAT(errorOf(presetText({{"fields", nlohmann::json::array(
                                                      {{{"kind", "attract"}, {"x", 1}, {"y", 2}, {"radius", 3},
                                                        {"strength", 500}}})}})),
                   Catch::Contains("'fields[0].strength' is 500, outside the allowed range 0 to 100"));
    }
    SECTION("a bad choice") {
        const std::string msg = errorOf(presetText({{"params", {{"boundaryMode", "sideways"}}}}));
        CHECK_THAT(msg, Catch::Contains("params.boundaryMode"));
        CHECK_THAT(msg, Catch::Contains("'sideways'"));
        CHECK_THAT(msg, Catch::Contains("wrap, bounce or soft"));
        CHECK_THAT(errorOf(presetText({{"params", {{"boundaryMode", 1}}}})), Catch::Contains("wrap, bounce or soft"));
        const std::string kind = errorOf(presetText(
            {{"fields", nlohmann::json::array({{{"kind", "suck"}, {"x", 1}, {"y", 2}, {"radius", 3}, {"strength", 1}}})}}));
        CHECK_THAT(kind, Catch::Contains("fields[0].kind"));
        CHECK_THAT(kind, Catch::Contains("attract, repel, vortex"));
        CHECK_THAT(errorOf(presetText({{"predators", nlohmann::json::array({{{"behaviour", "eat"}}})}})),
                   Catch::Contains("allowed: chase, path"));
    }
    SECTION("not JSON at all") {
        const std::string msg = errorOf("{ \"format\": \"mirofish-preset\", ");
        CHECK_THAT(msg, Catch::Contains("my-preset.json"));
        CHECK_THAT(msg, Catch::Contains("not valid JSON"));
        CHECK_THAT(errorOf(""), Catch::Contains("not valid JSON"));
        CHECK_THAT(errorOf("[1, 2]"), Catch::Contains("must be an object"));
    }
    SECTION("what hand-written JSON most often gets wrong, named with the rule, not only the place") {
        const std::string start = R"({"format": "mirofish-preset", "version": 1, "name": "Mine", "fish": 300)";
        CHECK_THAT(errorOf(start + ", // many fish\n}"), Catch::Contains("JSON has no comments"));
        CHECK_THAT(errorOf(start + ", # many fish\n}"), Catch::Contains("JSON has no comments"));
        CHECK_THAT(errorOf(start + ",\n}"), Catch::Contains("line 2, column 1") &&
                                                Catch::Contains("no comma after the last item"));
        // A line break inside a string is at the end of its line, not at a
        // "column 0" of the next.
        CHECK_THAT(errorOf(start + ",\n\"description\": \"one\ntwo\"}"), Catch::Contains("at line 2, column 20:"));
        CHECK_THAT(errorOf(start + R"(, "fields": [1,]})"), Catch::Contains("no comma after the last item"));
        CHECK_THAT(errorOf("{'format': 'mirofish-preset'}"), Catch::Contains("double quotes, not single ones"));
        CHECK_THAT(errorOf(start + R"(, "params": {"maxSpeed": NaN}})"), Catch::Contains("no NaN or Infinity"));
        CHECK_THAT(errorOf(start + R"(, "params": {"maxSpeed": -Infinity}})"), Catch::Contains("no NaN or Infinity"));
        // A comma left out said "expected '}'", and pointed past where it was missing.
        CHECK_THAT(errorOf(start + "\n\"seed\": 7}"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "path": [[1, 2] [3, 4]]})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "path": [1 2]})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "a": 1 "b": true})"), Catch::Contains("a comma is missing before this item"));
        // Written close, without spaces.
        CHECK_THAT(errorOf(start + R"(, "path": [[1,2][3,4]]})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(,"seed":7"x":1})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "o": [{"x":1}{"x":2}]})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "p": [1, 2] {"x": 1}})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(, "p": [true false]})"), Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + "\n\"description\": \"say \\\"hi\\\"\"\n\"seed\": 7}"),
                   Catch::Contains("a comma is missing before this item"));
        CHECK_THAT(errorOf(start + R"(,, "seed": 7})"), Catch::Contains("two commas in a row"));
        CHECK_THAT(errorOf(start + R"(, Intensity: 3})"), Catch::Contains("JSON keys take double quotes"));
        // A leading zero, or a number with a space in it, was "a comma is missing".
        CHECK_THAT(errorOf(start + R"(, "seed": 007})"),
                   Catch::Contains("no leading zeros: write 7, not 007") && !Catch::Contains("comma"));
        CHECK_THAT(errorOf(start + R"(, "p": [0300]})"), Catch::Contains("write 300, not 0300"));
        CHECK_THAT(errorOf(start + R"(, "seed": -007})"), Catch::Contains("write -7, not -007") && !Catch::Contains("comma"));
        CHECK_THAT(errorOf(start + R"(, "seed": 3 000})"),
                   Catch::Contains("in one piece: 3000, not 3 000)") && !Catch::Contains("comma"));
        CHECK_THAT(errorOf(start + R"(, "seed": 1 2})"), Catch::Contains("in one piece, without spaces") &&
                                                             !Catch::Contains("comma"));
        // In a list it may be two numbers as well.
        CHECK_THAT(errorOf(start + R"(, "p": [640, 1 080]})"), Catch::Contains("in one piece: 1080, not 1 080; or a comma"));
        // Its sign kept; a decimal or a leading zero is no grouping of thousands.
        CHECK_THAT(errorOf(start + R"(, "p": [-1 080]})"), Catch::Contains("in one piece: -1080, not -1 080"));
        CHECK_THAT(errorOf(start + R"(, "p": [1.5 000]})"), !Catch::Contains("in one piece"));
        CHECK_THAT(errorOf(start + R"(, "p": [0 080]})"), !Catch::Contains("in one piece"));
        // Curly quotes pasted from a web page, said as such and quoted in whole characters.
        for (const std::string curly : {", \"name\": \u201CMine\u201D}", ", \u201Cseed\u201D: 7}"}) {
            const std::string error = errorOf(start + curly);
            CHECK_THAT(error, Catch::Contains("curly quotes are no JSON quotes"));
            CHECK(wholeCharacters(error) == error);
        }
        // Python's spellings, a decimal comma, a file saved as UTF-16 by Notepad.
        CHECK_THAT(errorOf(start + R"(, "seed": None})"), Catch::Contains("(JSON writes null, not None)"));
        CHECK_THAT(errorOf(start + R"(, "p": [True]})"), Catch::Contains("(JSON writes true, not True)"));
        CHECK_THAT(errorOf(start + R"(, "p": False})"), Catch::Contains("(JSON writes false, not False)"));
        CHECK_THAT(errorOf(start + R"(, "params": {"perceptionRadius": 80,5}})"),
                   Catch::Contains("(a decimal comma? JSON writes 80.5, with a point)"));
        CHECK_THAT(errorOf(start + R"(, "seed": 7, 5})"), !Catch::Contains("decimal comma"));
        std::string utf16 = "\xFF\xFE";
        for (const char c : start + "}") utf16 += std::string{c, '\0'};
        CHECK_THAT(errorOf(utf16), Catch::Contains("the file is UTF-16") && Catch::Contains("save it as UTF-8"));
        // A string left open, a Windows path: the parser asked for an escaped line break.
        const std::string lineBreak = "(a line break inside a string: close the string before the line ends, or write \\n";
        CHECK_THAT(errorOf(start + ", \"name\": \"Mine}\n"), Catch::Contains(lineBreak));
        CHECK_THAT(errorOf(start + ", \"description\": \"line one\nline two\"}"), Catch::Contains(lineBreak));
        const std::string backslash = "(a backslash in a string starts an escape such as \\n: write \\\\ for a backslash itself)";
        CHECK_THAT(errorOf(start + R"(, "description": "From C:\Users\me"})"), Catch::Contains(backslash));
        CHECK_THAT(errorOf(start + R"(, "description": "From C:\users\me"})"), Catch::Contains(backslash));
        // Zero bytes alone (a power cut) are no encoding: the file is damaged.
        const std::string damaged = "as a write cut short by a crash or a power cut leaves: the file is damaged";
        CHECK_THAT(errorOf(std::string(600, '\0')), !Catch::Contains("UTF") && Catch::Contains(damaged));
        // A preset whose tail is zero bytes and more: the parser stopped at the
        // first zero byte, and what followed it was never read.
        const std::string valid = start + "}";
        REQUIRE_NOTHROW(parsePreset(valid, "p.json"));
        CHECK_THAT(errorOf(valid + std::string("\0garbage", 8)),
                   Catch::Contains("a zero byte at line ") && Catch::Contains(damaged));
        CHECK_THAT(errorOf(valid + std::string(40, '\0')), Catch::Contains(damaged));
        // Zero bytes from anywhere on, inside a string too, where the parser
        // asked to escape the first of them.
        const std::string preset = readText(shippedPreset("gentle-cruise"));
        for (std::size_t cut = 8; cut < preset.size(); cut += 7) {
            INFO("zero bytes from byte " << cut);
            CHECK_THAT(errorOf(preset.substr(0, cut) + std::string(preset.size() - cut, '\0')),
                       Catch::Contains(damaged) && !Catch::Contains("must be escaped"));
        }
        // UTF-32 starts as UTF-16 does, then a zero pair: it was called UTF-16.
        std::string utf32 = std::string("\xFF\xFE\0\0", 4);
        for (const char c : start + "}") utf32 += std::string{c, '\0', '\0', '\0'};
        CHECK_THAT(errorOf(utf32), Catch::Contains("the file is UTF-32: save it as UTF-8"));
        CHECK_THAT(errorOf(utf32.substr(4)), Catch::Contains("the file is UTF-32: save it as UTF-8"));  // no mark
        // "Café" saved as Latin-1: its é is a byte no UTF-8 text holds.
        CHECK_THAT(errorOf(start + ", \"description\": \"Caf\xE9\"}"),
                   Catch::Contains("the file is not UTF-8") && Catch::Contains("save it as UTF-8"));
        // Other slips keep the parser's words alone: no hint that misleads.
        for (const std::string slip : {R"(, "seed": x})", R"(, "name": Neon reef})", R"(, "seed" 7})", R"(, "a": 1 :})",
                                       R"(, "description": "A school called ""the swirl"""})",
                                       R"(, "description": "Season "2""})", R"(, "description": "Use "true" colours"})",
                                       R"(, "description": "Say \"hi\" "again""})",
                                       R"(, "seed": 1/3})", R"(, "name": "Nemo\'s"})",
                                       R"(, "name": "\#"})", R"(, "name": "\u12/4"})"}) {
            INFO(slip);
            CHECK_THAT(errorOf(start + slip), Catch::Contains("not valid JSON") && !Catch::Contains("(JSON") &&
                                                  !Catch::Contains("comma"));
        }
    }
    SECTION("another format or version") {
        CHECK_THAT(errorOf(presetText({{"format", "blender-scene"}})), Catch::Contains("not a MiroFish preset"));
        CHECK_THAT(errorOf(presetText({{"format", nullptr}})), Catch::Contains("not a MiroFish preset"));
        const std::string msg = errorOf(presetText({{"version", 2}}));
        CHECK_THAT(msg, Catch::Contains("'version' is 2"));
        CHECK_THAT(msg, Catch::Contains("reads version 1"));
        CHECK_THAT(errorOf(presetText({{"version", nullptr}})), Catch::Contains("'version' is missing"));
        CHECK_THAT(errorOf(presetText({{"version", "1"}})),
                   Catch::Contains("'version' must be a number, not \"1\"; this MiroFish reads version 1"));
        // A list nested deeper than the stack would write out (it crashed).
        std::string deep = "{\"format\": \"mirofish-preset\", \"name\": \"D\", \"version\": ";
        deep += std::string(200000, '[') + std::string(200000, ']') + "}";
        CHECK_THAT(errorOf(deep), Catch::Contains("'version' must be a number, not a list"));
        // A newer MiroFish's preset, with keys this one does not know, or another program's JSON.
        CHECK_THAT(errorOf(presetText({{"version", 2}, {"camera", {{"zoom", 2}}}})),
                   Catch::Contains("'version' is 2; this MiroFish reads version 1"));
        CHECK_THAT(errorOf(R"({"name": "app", "dependencies": {"qt": "6"}})"), Catch::Contains("not a MiroFish preset"));
    }
    SECTION("missing or empty required things") {
        CHECK_THAT(errorOf(presetText({{"name", nullptr}})), Catch::Contains("'name' is missing"));
        CHECK_THAT(errorOf(presetText({{"name", ""}})), Catch::Contains("'name' must not be empty"));
        // Listed with no visible title in the editor and by `presets`.
        for (const char* blank : {"   ", "\u00a0", "\u3000\u3000", " \u2003 "}) {
            INFO(blank);
            CHECK_THAT(errorOf(presetText({{"name", blank}})), Catch::Contains("'name' must not be empty or only spaces"));
        }
        CHECK_NOTHROW(parsePreset(presetText({{"name", "\u3000Reef"}}), "reef.json"));
        CHECK_THAT(errorOf(presetText({{"world", {{"width", 100}}}})), Catch::Contains("'world.height' is missing"));
        CHECK_THAT(errorOf(presetText({{"leader", {{"path", nlohmann::json::array()}}}})),
                   Catch::Contains("'leader.path' must be a list of at least 1"));
        nlohmann::json onePoint = nlohmann::json::object();
        onePoint["behaviour"] = "path";
        onePoint["path"] = nlohmann::json::array({nlohmann::json::array({1, 2})});
        CHECK_THAT(errorOf(presetText({{"predators", nlohmann::json::array({onePoint})}})),
                   Catch::Contains("at least 2 points"));
    }
    SECTION("a predator key its behaviour does not use, or half a start") {
        nlohmann::json chaser = {{"behaviour", "chase"}, {"x", 1}, {"y", 2}};
        chaser["path"] = nlohmann::json::array({nlohmann::json::array({1, 2}), nlohmann::json::array({3, 4})});
        CHECK_THAT(errorOf(presetText({{"predators", nlohmann::json::array({chaser})}})),
                   Catch::Contains("'predators[0].path' is only used with \"behaviour\": \"path\""));
        nlohmann::json walker = {{"behaviour", "path"}, {"y", 2}};
        walker["path"] = chaser["path"];
        CHECK_THAT(errorOf(presetText({{"predators", nlohmann::json::array({walker})}})),
                   Catch::Contains("'predators[0].x' is missing (a start gives both x and y)"));
    }
}

TEST_CASE("a key given twice in one object of a preset is refused, not silently the last one") {
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "fish": 10, "fish": 20})", "dup.json"),
                      Catch::Contains("dup.json: the key 'fish' is given twice"));
    CHECK_THROWS_WITH(
        parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "params": {"maxSpeed": 1, "maxSpeed": 2}})", "p.json"),
        Catch::Contains("'params.maxSpeed' is given twice"));
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "predators": [
                                     {"behaviour": "chase", "x": 1, "y": 1}, {"behaviour": "chase", "x": 1, "y": 1, "x": 2}]})",
                                  "p.json"),
                      Catch::Contains("p.json: the key 'predators[1].x' is given twice"));
    // The same key in two objects is two keys.
    CHECK(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "world": {"width": 300, "height": 200},
                          "params": {"separationRadius": 20}, "obstacles": [{"x": 1, "y": 2, "radius": 3}, {"x": 4, "y": 5, "radius": 6}]})",
                      "ok.json")
              .scene.obstacles.size() == 2);
}

TEST_CASE("a number too large to read names the key that holds it") {
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "params": {"maxSpeed": 1e400}})", "big.json"),
                      Catch::StartsWith("big.json: number out of range in 'params.maxSpeed' ("));
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "world": {"width": 300, "height": 200},
                                     "obstacles": [{"x": 1, "y": 2, "radius": 3}, {"x": 4, "y": -1e999, "radius": 6}]})",
                                  "far.json"),
                      Catch::StartsWith("far.json: number out of range in 'obstacles[1].y' ("));
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N",
                                     "predators": [{"behaviour": "path", "path": [[1, 2], [3, 4], [5, 1e400]]}]})",
                                  "path.json"),
                      Catch::StartsWith("path.json: number out of range in 'predators[0].path[2][1]' ("));
}

TEST_CASE("a preset name with a control character is refused, not printed raw to the terminal") {
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "a\u001b[31mRED\u0007"})", "ctl.json"),
                      Catch::Contains("ctl.json") && Catch::Contains("'name' holds a control character (U+001B)"));
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "two\nlines"})", "nl.json"),
                      Catch::Contains("U+000A") && Catch::Contains("one line"));
    // A description may break lines, and nothing else.
    CHECK(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "description": "one\ntwo"})", "d.json")
              .description == "one\ntwo");
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "description": "\u0000"})", "z.json"),
                      Catch::Contains("'description' holds a control character (U+0000)"));
    // The C1 controls too (U+009B is a terminal's escape sequence in one
    // character); letters beside them in UTF-8 are fine.
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "a\u009b2Jb"})", "c1.json"),
                      Catch::Contains("'name' holds a control character (U+009B)"));
    CHECK_THROWS_WITH(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N", "description": "x\u0085y"})", "c1.json"),
                      Catch::Contains("'description' holds a control character (U+0085)"));
    CHECK(parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "\u00a0\u00bf\u00e9"})", "ok.json").name ==
          "\xC2\xA0\xC2\xBF\xC3\xA9");
    // Nor is one saved.
    TempDir dir;
    Preset p = parsePreset(R"({"format": "mirofish-preset", "version": 1, "name": "N"})", "n.json");
    p.name = "bell\a";
    CHECK_THROWS_WITH(savePreset(p, dir / "bell.json"), Catch::Contains("the name holds a control character (U+0007)"));
    CHECK_FALSE(std::filesystem::exists(dir / "bell.json"));
}

TEST_CASE("a preset file that cannot be read is refused with its name and why") {
    TempDir dir;
    CHECK_THROWS_WITH(loadPreset(dir / "absent.json"),
                      Catch::Contains("absent.json: cannot open the preset file (No such file or directory)"));
    writeText(dir / "broken.json", "{ nope");
    CHECK_THROWS_WITH(loadPreset(dir / "broken.json"), Catch::Contains("broken.json") && Catch::Contains("not valid JSON"));
}

TEST_CASE("a device or a pipe named as a preset is refused at once, not read forever") {
    TempDir dir;
    REQUIRE(::mkfifo((dir / "pipe.json").c_str(), 0600) == 0);  // nobody writes: reading it would block
    CHECK_THROWS_WITH(loadPreset(dir / "pipe.json"), Catch::Contains("pipe.json: a device, pipe or socket"));
    CHECK_THROWS_WITH(loadPreset("/dev/zero"), Catch::Contains("/dev/zero: a device, pipe or socket, not a preset file"));
    CHECK_THROWS_WITH(loadPreset(dir.path()), Catch::Contains("a folder, not a preset file"));
}

TEST_CASE("a number beyond a double's range is refused with the file's name, as out of range") {
    const std::string overflow = R"({"format": "mirofish-preset", "version": 1, "name": "Test", "fish": 1e400})";
    const std::string msg = errorOf(overflow, "gentle-cruise.json");
    CHECK_THAT(msg, Catch::StartsWith("gentle-cruise.json: "));
    CHECK_THAT(msg, Catch::Contains("number out of range") && Catch::Contains("1e400"));
    CHECK_THAT(errorOf(R"({"format": "mirofish-preset", "version": 1, "name": "T", "params": {"maxSpeed": -1e999}})"),
               Catch::Contains("my-preset.json: number out of range"));
}

TEST_CASE("a file in a preset folder too large for a preset, or no JSON object, is refused without being read through") {
    // A 100 MB JSON array took 27 s and 1.8 GB to list, again after every save in the editor.
    TempDir dir;
    {
        std::ofstream big(dir / "big.json", std::ios::binary);
        big << "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"Big\", \"description\": \"";
        big << std::string(kLargestPresetBytes, 'x') << "\"}";
    }
    {
        std::ofstream array(dir / "array.json", std::ios::binary);
        array << "[";
        for (int i = 0; i < 200000; ++i) array << "1,";
        array << "1]";
    }
    writeText(dir / "one.json", presetText({{"name", "One"}}));
    std::vector<std::string> problems;
    const auto list = listPresets({dir.path()}, &problems);
    REQUIRE(list.size() == 1);
    REQUIRE(problems.size() == 2);
    CHECK_THAT(problems[0] + problems[1], Catch::Contains("array.json: must be an object") &&
                                               Catch::Contains("big.json: 16777293 bytes, too large for a preset file (at most 16 MB, 16777216 bytes)"));
    CHECK_THROWS_WITH(parsePreset("5", "five.json"), "five.json: must be an object");
}

TEST_CASE("presets are listed by id from several folders, the first folder winning") {
    TempDir a, b;
    writeText(a / "one.json", presetText({{"name", "One from A"}, {"description", "first"}}));
    writeText(b / "one.json", presetText({{"name", "One from B"}}));
    writeText(b / "two.json", presetText({{"name", "Two"}}));
    writeText(b / "bad.json", "{");
    writeText(b / "notes.txt", "not a preset");
    std::vector<std::string> problems;
    const auto list = listPresets({a.path(), b.path(), a / "does-not-exist"}, &problems);
    REQUIRE(list.size() == 2);
    CHECK(list[0].id == "one");
    CHECK(list[0].name == "One from A");
    CHECK(list[0].description == "first");
    CHECK(list[1].id == "two");
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("bad.json"));

    CHECK(resolvePreset("two", {a.path(), b.path()}) == b / "two.json");
    CHECK(resolvePreset((a / "one.json").string(), {}) == a / "one.json");
    CHECK_FALSE(resolvePreset("three", {a.path(), b.path()}).has_value());
    // A preset's file name, as the folder shows it, finds it too.
    CHECK(resolvePreset("two.json", {a.path(), b.path()}) == b / "two.json");
    CHECK_FALSE(resolvePreset("b/two.json", {a.path(), b.path()}).has_value());
}

TEST_CASE("a preset's id finds the preset before a file of that name in the current folder, and a path or FILE.json finds the file") {
    // `simulate --save-state gentle-cruise` wrote a state file of the
    // default preset's id here, and every later run without --preset read
    // that file as the preset and failed.
    TempDir presets, here;
    writeText(presets / "calm.json", presetText({{"name", "Calm"}}));
    writeText(here / "calm", "MFSTATE not a preset");
    writeText(here / "calm.json", presetText({{"name", "My calm"}}));
    writeText(here / "own", presetText({{"name", "Own"}}));
    const auto before = std::filesystem::current_path();
    std::filesystem::current_path(here.path());
    const auto calm = resolvePreset("calm", {presets.path()});
    const auto dotted = resolvePreset("./calm", {presets.path()});
    const auto named = resolvePreset("calm.json", {presets.path()});
    const auto own = resolvePreset("own", {presets.path()});
    std::filesystem::current_path(before);
    CHECK(calm == presets / "calm.json");
    CHECK(dotted == std::filesystem::path("./calm"));
    CHECK(named == std::filesystem::path("calm.json"));  // a copy to edit, beside the shipped one
    CHECK(own == std::filesystem::path("own"));          // no preset of that id: the file
}

TEST_CASE("a path to a preset file not there finds nothing, not the preset of that id") {
    // `--preset ./calm` with no file ./calm looked for presets/./calm.json,
    // and an artist's render of a copy missing here used the shipped preset.
    TempDir presets, here;
    writeText(presets / "calm.json", presetText({{"name", "Calm"}}));
    writeText(here / "mine.json", presetText({{"name", "Mine"}}));
    const auto before = std::filesystem::current_path();
    std::filesystem::current_path(here.path());
    const auto dotted = resolvePreset("./calm", {presets.path()});
    const auto nested = resolvePreset("sub/../calm", {presets.path()});
    const auto withoutJson = resolvePreset((here / "mine").string(), {presets.path()});
    std::filesystem::current_path(before);
    CHECK_FALSE(dotted.has_value());
    CHECK_FALSE(nested.has_value());
    CHECK_FALSE(withoutJson.has_value());  // a path is the file as named
}

TEST_CASE("a folder named twice, itself or through a link, is read once: each broken file in it is named once") {
    TempDir a;
    writeText(a / "broken.json", "{oops");
    writeText(a / "calm.json", presetText({{"name", "Calm"}}));
    std::filesystem::create_directory_symlink(a.path(), a.path().string() + "-link");
    const std::filesystem::path link = a.path().string() + "-link";
    std::vector<std::string> problems;
    const auto list = listPresets({link, a.path(), a.path()}, &problems);
    std::filesystem::remove(link);
    CHECK(list.size() == 1);
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("not valid JSON") && !Catch::Contains("same id"));
}

TEST_CASE("a folder or a link to nothing named like a preset in an earlier folder is passed over, in the list as by its id") {
    // The list said the later folder's reef could not be opened; its id opened it.
    TempDir a, b;
    std::filesystem::create_directory(a / "reef.json");
    std::filesystem::create_symlink(a / "gone", a / "calm.json");
    writeText(b / "reef.json", presetText({{"name", "Reef"}}));
    writeText(b / "calm.json", presetText({{"name", "Calm"}}));
    std::vector<std::string> problems;
    const auto list = listPresets({a.path(), b.path()}, &problems);
    REQUIRE(list.size() == 2);
    CHECK(list[0].file == b / "calm.json");
    CHECK(list[1].file == b / "reef.json");
    CHECK(resolvePreset("calm", {a.path(), b.path()}) == b / "calm.json");
    CHECK(resolvePreset("reef", {a.path(), b.path()}) == b / "reef.json");
    // Each is still named, as what it is.
    REQUIRE(problems.size() == 2);
    for (const std::string& problem : problems) CHECK_THAT(problem, !Catch::Contains("has the same id"));
}

TEST_CASE("a preset hidden by a broken file of the same id in an earlier folder is not listed, and both are named") {
    TempDir a, b;
    writeText(a / "reef.json", "{");
    writeText(b / "reef.json", presetText({{"name", "Reef"}}));
    std::vector<std::string> problems;
    CHECK(listPresets({a.path(), b.path()}, &problems).empty());
    // What opens by that id is the broken file, so a listed Reef could not be opened.
    CHECK(resolvePreset("reef", {a.path(), b.path()}) == a / "reef.json");
    REQUIRE(problems.size() == 2);
    CHECK_THAT(problems[0], Catch::Contains((a / "reef.json").string()));
    CHECK_THAT(problems[1], Catch::StartsWith((b / "reef.json").string()) &&
                                Catch::Contains("has the same id 'reef'") && Catch::Contains("cannot be read"));
}
