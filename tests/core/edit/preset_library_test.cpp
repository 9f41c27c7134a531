// The preset browser's library: shipped presets next to the user's own,
// which can be saved, overwritten, renamed and deleted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "edit/preset_library.hpp"
#include "support/cli_run.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;
namespace fs = std::filesystem;

namespace {

Preset named(const std::string& name, float maxSpeed = 200.0f) {
    Preset p;
    p.name = name;
    p.description = "about " + name;
    p.scene.fishCount = 42;
    p.scene.params.set(ParamId::MaxSpeed, maxSpeed);
    return p;
}

std::vector<fs::path> jsonFiles(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
}

const PresetLibrary::Entry& find(const std::vector<PresetLibrary::Entry>& list, const std::string& name) {
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.name == name; });
    REQUIRE(it != list.end());
    return *it;
}

}  // namespace

TEST_CASE("a preset name becomes a readable file name", "[edit]") {
    REQUIRE(PresetLibrary::slugFor("Gentle cruise") == "gentle-cruise");
    REQUIRE(PresetLibrary::slugFor("  Seed-locked (article 000) ") == "seed-locked-article-000");
    REQUIRE(PresetLibrary::slugFor("Fisch\xc3\xa9s & co!") == "fisch-s-co");
    REQUIRE(PresetLibrary::slugFor("!!!") == "preset");
    REQUIRE(PresetLibrary::slugFor("") == "preset");
    REQUIRE(PresetLibrary::slugFor(std::string(300, 'a')).size() == 64);
}

TEST_CASE("shipped and user presets are listed together by name", "[edit]") {
    TempDir user;
    PresetLibrary lib({MIROFISH_PRESET_DIR}, user / "mine");
    const std::size_t shipped = lib.entries().size();
    REQUIRE(shipped >= 12);
    lib.save(named("aardvark school"));
    // The name of a shipped one: both are listed, yours under another id, so
    // that `--preset gentle-cruise` (the shipped one's) does not hide it.
    lib.save(named("Gentle cruise"));
    lib.save(named("Zebra fish"));
    std::vector<std::string> problems;
    const auto list = lib.entries(&problems);
    REQUIRE(problems.empty());
    REQUIRE(list.size() == shipped + 3);
    REQUIRE(list.front().name == "aardvark school");
    REQUIRE(list.front().user);
    REQUIRE(list.back().name == "Zebra fish");
    // Equal names: the shipped one first.
    const auto cruise = std::find_if(list.begin(), list.end(), [](const auto& e) { return e.id == "gentle-cruise"; });
    REQUIRE(cruise != list.end());
    REQUIRE_FALSE(cruise->user);
    REQUIRE((cruise + 1)->id == "gentle-cruise-2");
    REQUIRE((cruise + 1)->user);
    REQUIRE((cruise + 1)->file == user / "mine" / "gentle-cruise-2.json");
}

TEST_CASE("a saved preset loads back with its parameters", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user / "new" / "folder");  // created on first save
    const auto e = lib.save(named("My School", 321.0f));
    REQUIRE(e.user);
    REQUIRE(e.id == "my-school");
    REQUIRE(e.file == user / "new" / "folder" / "my-school.json");
    const Preset back = lib.load(e);
    REQUIRE(back.name == "My School");
    REQUIRE(back.description == "about My School");
    REQUIRE(back.scene.fishCount == 42);
    REQUIRE(back.scene.params.get(ParamId::MaxSpeed) == 321.0f);
}

TEST_CASE("a preset folder that is a link to a drive not mounted is named as such, nothing saved", "[edit]") {
    // The save said "cannot create the user preset folder ... (File exists)".
    TempDir user;
    fs::create_symlink(user / "usb-gone" / "presets", user / "presets");
    PresetLibrary lib({}, user / "presets");
    CHECK_THROWS_WITH(lib.save(named("Mine")), Catch::Contains("is a link to '" + (user / "usb-gone" / "presets").string() +
                                                               "', which is not there (a drive not mounted?)") &&
                                                   Catch::Contains("nothing was saved"));
    CHECK_FALSE(fs::exists(user / "usb-gone"));
}

TEST_CASE("no preset folder because $MIROFISH_USER_PRESETS starts with ~ without HOME is said so, nothing saved", "[edit]") {
    // It advised setting XDG_DATA_HOME, which that variable overrides.
    const ScopedEnv user("MIROFISH_USER_PRESETS", "~/mine");
    PresetLibrary lib({}, {});
    CHECK_THROWS_WITH(lib.save(named("Mine")),
                      Catch::Contains("$MIROFISH_USER_PRESETS is '~/mine', which starts with ~, the home folder, and "
                                      "HOME is not set") &&
                          Catch::Contains("nothing was saved"));
}

TEST_CASE("saving twice under the same name keeps one file", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    lib.save(named("Night swim", 100.0f));
    const auto e = lib.save(named("Night swim", 250.0f));
    REQUIRE(jsonFiles(user.path()) == std::vector<fs::path>{"night-swim.json"});
    REQUIRE(lib.load(e).scene.params.get(ParamId::MaxSpeed) == 250.0f);
}

TEST_CASE("a different name with the same file name gets a numbered file", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    lib.save(named("Night swim"));
    const auto second = lib.save(named("night swim!"));
    const auto third = lib.save(named("Night-swim"));
    REQUIRE(second.id == "night-swim-2");
    REQUIRE(third.id == "night-swim-3");
    REQUIRE(lib.load(second).name == "night swim!");
    REQUIRE(lib.entries().size() == 3);
}

TEST_CASE("a name that differs only in case is the same preset, which saving it replaces", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto first = lib.save(named("Night swim", 100.0f));
    REQUIRE(lib.savedAs("NIGHT SWIM") == first.file);  // the editor asks before replacing it
    const auto again = lib.save(named("NIGHT SWIM", 250.0f));
    CHECK(again.file == first.file);
    CHECK(lib.load(again).name == "NIGHT SWIM");
    CHECK(lib.load(again).scene.params.get(ParamId::MaxSpeed) == 250.0f);
    CHECK(lib.entries().size() == 1);
}

TEST_CASE("saving under the name of a preset of yours in a numbered file replaces that one, past a gap", "[edit]") {
    // Names without ASCII letters all have the file name "preset": with the
    // first deleted, the second was saved again into the free preset.json,
    // two presets of one name, and nothing asked first.
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto shoal = lib.save(named("群れ"));
    const auto swirl = lib.save(named("渦", 100.0f));
    REQUIRE(swirl.id == "preset-2");
    lib.remove(shoal);
    REQUIRE(lib.savedAs("渦") == swirl.file);  // the editor asks before replacing it
    const auto again = lib.save(named("渦", 250.0f));
    CHECK(again.file == swirl.file);
    CHECK(jsonFiles(user.path()) == std::vector<fs::path>{"preset-2.json"});
    CHECK(lib.load(again).scene.params.get(ParamId::MaxSpeed) == 250.0f);
    // A new name still takes the first free file.
    CHECK(lib.save(named("魚")).id == "preset");
}

TEST_CASE("saving into a folder that cannot be created says which folder", "[edit]") {
    TempDir user;
    writeText(user / "a-file", "not a folder");
    PresetLibrary lib({}, user / "a-file" / "presets");
    try {
        lib.save(named("Anything"));
        FAIL("save should have thrown");
    } catch (const PresetError& e) {
        REQUIRE_THAT(e.what(), Catch::Contains((user / "a-file" / "presets").string()));
    }
}

TEST_CASE("saving without a folder for your presets says how to give one and writes nothing", "[edit]") {
    TempDir cwd;
    const fs::path before = fs::current_path();
    fs::current_path(cwd.path());
    PresetLibrary lib({}, fs::path{});
    CHECK_THROWS_WITH(lib.save(named("Anything")), Catch::Contains("set HOME, XDG_DATA_HOME or MIROFISH_USER_PRESETS"));
    fs::current_path(before);
    CHECK(jsonFiles(cwd.path()).empty());
}

TEST_CASE("shipped presets cannot be renamed or deleted", "[edit]") {
    TempDir user;
    PresetLibrary lib({MIROFISH_PRESET_DIR}, user.path());
    const auto list = lib.entries();
    const auto& cruise = find(list, "Gentle cruise");
    REQUIRE_FALSE(cruise.user);
    REQUIRE_THROWS_WITH(lib.rename(cruise, "Mine now"), Catch::Contains("cannot be renamed"));
    REQUIRE_THROWS_WITH(lib.remove(cruise), Catch::Contains("cannot be deleted"));
    REQUIRE_THROWS_WITH(lib.saveOver(cruise, named("Other")), Catch::Contains("read-only; use Save as"));
    REQUIRE(fs::exists(cruise.file));
    REQUIRE(lib.load(cruise).name == "Gentle cruise");
    REQUIRE(jsonFiles(user.path()).empty());
}

TEST_CASE("your own folder named among the shipped ones holds your presets, listed once, to save over", "[edit]") {
    // MIROFISH_PRESETS=~/fish MIROFISH_USER_PRESETS=~/fish: every preset of
    // yours showed as shipped and read-only, and twice.
    TempDir user;
    PresetLibrary lib({user.path(), MIROFISH_PRESET_DIR}, user.path());
    lib.save(named("Mine"));
    const auto list = lib.entries();
    CHECK(std::count_if(list.begin(), list.end(), [](const auto& e) { return e.name == "Mine"; }) == 1);
    const auto& mine = find(list, "Mine");
    CHECK(mine.user);
    CHECK_NOTHROW(lib.saveOver(mine, named("Mine", 300)));
    // Its own file is no shipped id: saved again under its name, it is replaced, not numbered.
    lib.save(named("Mine", 320));
    CHECK(jsonFiles(user.path()) == std::vector<fs::path>{"mine.json"});
}

TEST_CASE("overwriting a user preset keeps its file", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto e = lib.save(named("Reef"));
    const auto over = lib.saveOver(e, named("Reef at dusk", 90.0f));
    REQUIRE(over.file == e.file);
    REQUIRE(over.name == "Reef at dusk");
    REQUIRE(lib.load(over).scene.params.get(ParamId::MaxSpeed) == 90.0f);
    REQUIRE(jsonFiles(user.path()) == std::vector<fs::path>{"reef.json"});
}

TEST_CASE("renaming a user preset renames its file and keeps its content", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto e = lib.save(named("Draft", 77.0f));
    const auto renamed = lib.rename(e, "Final school");
    REQUIRE(renamed.id == "final-school");
    REQUIRE(jsonFiles(user.path()) == std::vector<fs::path>{"final-school.json"});
    const Preset back = lib.load(renamed);
    REQUIRE(back.name == "Final school");
    REQUIRE(back.scene.params.get(ParamId::MaxSpeed) == 77.0f);

    // Only the case changes: same file, new name inside.
    const auto recased = lib.rename(renamed, "FINAL School");
    REQUIRE(recased.file == renamed.file);
    REQUIRE(lib.load(recased).name == "FINAL School");
}

TEST_CASE("renaming refuses an empty name or one whose file another preset uses", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto a = lib.save(named("Alpha"));
    lib.save(named("Beta"));
    REQUIRE_THROWS_WITH(lib.rename(a, "  "), Catch::Contains("cannot be empty"));
    REQUIRE_THROWS_WITH(lib.rename(a, "beta"), Catch::Contains("\"Beta\""));
    REQUIRE(jsonFiles(user.path()) == std::vector<fs::path>{"alpha.json", "beta.json"});
    REQUIRE(lib.load(a).name == "Alpha");
}

TEST_CASE("a rename to a name whose file name another preset holds takes a numbered file, as Save as does", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    // Names without a Latin letter or digit all make the file name "preset".
    lib.save(named("Рыбы"));
    const auto fish = lib.save(named("魚"));
    REQUIRE(fish.file.filename() == "preset-2.json");
    const auto renamed = lib.rename(fish, "Медуза");
    CHECK(renamed.file == fish.file);
    CHECK(lib.load(renamed).name == "Медуза");
    const auto draft = lib.save(named("Draft"));
    const auto moved = lib.rename(draft, "Скат");
    CHECK(moved.file.filename() == "preset-3.json");
    CHECK(lib.load(moved).name == "Скат");
    CHECK(jsonFiles(user.path()) == std::vector<fs::path>{"preset-2.json", "preset-3.json", "preset.json"});
    CHECK_THROWS_WITH(lib.rename(moved, "Рыбы"), Catch::Contains("you already have the user preset \"Рыбы\""));
}

TEST_CASE("a rename to the name of a preset of yours in a numbered file is refused, not a second of that name",
          "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto foo = lib.save(named("Foo"));
    REQUIRE(lib.save(named("Foo!")).file.filename() == "foo-2.json");
    CHECK_THROWS_WITH(lib.rename(foo, "foo!"), Catch::Contains("you already have the user preset \"Foo!\""));
    CHECK(lib.load(foo).name == "Foo");
    // Its own name in another case is a rename of itself.
    CHECK(lib.load(lib.rename(foo, "FOO")).name == "FOO");
}

TEST_CASE("a deleted user preset is gone from the list, and deleting it twice says so", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    const auto e = lib.save(named("Short lived"));
    lib.save(named("Keeper"));
    lib.remove(e);
    const auto list = lib.entries();
    REQUIRE(list.size() == 1);
    REQUIRE(list[0].name == "Keeper");
    REQUIRE_THROWS_WITH(lib.remove(e), Catch::Contains("already gone"));
}

TEST_CASE("a broken user preset is reported by name and the others still list", "[edit]") {
    TempDir user;
    PresetLibrary lib({}, user.path());
    lib.save(named("Fine"));
    writeText(user / "broken.json", "{\"format\": \"mirofish-preset\", \"version\": 1,");
    std::vector<std::string> problems;
    const auto list = lib.entries(&problems);
    REQUIRE(list.size() == 1);
    REQUIRE(list[0].name == "Fine");
    REQUIRE(problems.size() == 1);
    REQUIRE_THAT(problems[0], Catch::Contains("broken.json") && Catch::Contains("not valid JSON"));
    // Saving a preset whose file name is taken by the broken file leaves it for the user to repair.
    const auto e = lib.save(named("Broken"));
    REQUIRE(e.id == "broken-2");
}

TEST_CASE("a user preset with a number out of range is reported by name and the others still list", "[edit]") {
    TempDir shipped, user;
    writeText(shipped / "calm.json", R"({"format": "mirofish-preset", "version": 1, "name": "Calm"})");
    PresetLibrary lib({shipped.path()}, user.path());
    lib.save(named("Fine"));
    writeText(user / "gentle-cruise.json", R"({"format": "mirofish-preset", "version": 1, "name": "G", "fish": 1e400})");
    std::vector<std::string> problems;
    const auto list = lib.entries(&problems);
    REQUIRE(list.size() == 2);
    CHECK(list[0].name == "Calm");
    CHECK(list[1].name == "Fine");
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::Contains("gentle-cruise.json") && Catch::Contains("number out of range"));
    // Its file name is not taken over by a save.
    CHECK(lib.save(named("Gentle cruise")).id == "gentle-cruise-2");
}
