#include "edit/preset_library.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <system_error>
#include <utility>

#include "io/broken_link.hpp"
#include "io/home_folder.hpp"

namespace mirofish {

namespace fs = std::filesystem;

namespace {

char lowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string lowerAscii(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = lowerAscii(c);
    return out;
}

void requireUser(const PresetLibrary::Entry& e, std::string_view refusal) {
    if (!e.user) throw PresetError(e.file.string() + ": " + std::string(refusal));
}

}  // namespace

PresetLibrary::PresetLibrary(std::vector<fs::path> shippedDirs, fs::path userDir)
    : shippedDirs_(std::move(shippedDirs)), userDir_(std::move(userDir)) {}

std::vector<fs::path> PresetLibrary::shippedDirs() const {
    // $MIROFISH_PRESETS may name your own folder too: its presets are yours,
    // to save over, rename and delete (they were taken for shipped ones,
    // read-only, each listed twice).
    std::vector<fs::path> dirs;
    std::error_code ec;
    for (const fs::path& dir : shippedDirs_)
        if (userDir_.empty() || !fs::equivalent(dir, userDir_, ec)) dirs.push_back(dir);
    return dirs;
}

std::vector<PresetLibrary::Entry> PresetLibrary::entries(std::vector<std::string>* problems) const {
    std::vector<Entry> out;
    for (PresetInfo& p : listPresets(shippedDirs(), problems))
        out.push_back(Entry{std::move(p.id), std::move(p.name), std::move(p.description), std::move(p.file), false});
    for (PresetInfo& p : listPresets({userDir_}, problems))
        out.push_back(Entry{std::move(p.id), std::move(p.name), std::move(p.description), std::move(p.file), true});
    // Ties (equal names) go by id, shipped first, so the order never depends on the file system.
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) {
        const std::string na = lowerAscii(a.name), nb = lowerAscii(b.name);
        if (na != nb) return na < nb;
        if (a.id != b.id) return a.id < b.id;
        return !a.user && b.user;
    });
    return out;
}

PresetLibrary::Entry PresetLibrary::write(const Preset& preset, const fs::path& file) {
    // No folder: neither HOME nor XDG_DATA_HOME told where one lives, or
    // $MIROFISH_USER_PRESETS starts with ~ and HOME is not set (which the
    // advice to set XDG_DATA_HOME cannot mend: the variable comes first).
    if (userDir_.empty()) {
        if (const char* env = std::getenv("MIROFISH_USER_PRESETS"); env && *env)
            throw PresetError("$MIROFISH_USER_PRESETS is '" + std::string(env) + "', which " + kTildeWithoutHome +
                              "; nothing was saved");
        throw PresetError("there is no folder for your presets: set HOME, XDG_DATA_HOME or MIROFISH_USER_PRESETS; "
                          "nothing was saved");
    }
    if (const std::string broken = brokenLinkOnTheWay(userDir_); !broken.empty())
        throw PresetError("cannot save into the user preset folder " + userDir_.string() + ": " + broken +
                          "; nothing was saved");
    std::error_code ec;
    fs::create_directories(userDir_, ec);
    if (ec)
        throw PresetError("cannot create the user preset folder " + userDir_.string() + " (" + ec.message() +
                          "); nothing was saved");
    try {
        savePreset(preset, file);
    } catch (const PresetError& e) {
        throw PresetError("cannot save into the user preset folder " + userDir_.string() + ": " + e.what());
    }
    return Entry{file.stem().string(), preset.name, preset.description, file, true};
}

fs::path PresetLibrary::fileFor(const std::string& name) const {
    // A preset of yours of this name, in whichever file it is ("Рыбы" may be
    // in preset-2.json, preset.json deleted since); "mine" is the preset
    // "Mine": names that differ only in case are one name.
    for (const PresetInfo& p : listPresets({userDir_}, nullptr))
        if (lowerAscii(p.name) == lowerAscii(name)) return p.file;
    return freeFileFor(slugFor(name));
}

fs::path PresetLibrary::freeFileFor(const std::string& slug, std::string_view ownId) const {
    // A file that does not load is not ours to overwrite either: the user may still repair it.
    // A shipped id always opens the shipped preset (`--preset gentle-cruise`):
    // a file of yours of that id could be opened only by its path.
    std::error_code ec;
    const std::vector<fs::path> shipped = shippedDirs();
    const auto shippedId = [&](const std::string& id) {
        return std::any_of(shipped.begin(), shipped.end(),
                           [&](const fs::path& dir) { return fs::exists(dir / (id + ".json"), ec); });
    };
    for (int n = 1;; ++n) {
        const std::string id = n == 1 ? slug : slug + "-" + std::to_string(n);
        const fs::path file = userDir_ / (id + ".json");
        if (id == ownId || (!fs::exists(file, ec) && !shippedId(id))) return file;
    }
}

std::optional<fs::path> PresetLibrary::savedAs(const std::string& name) const {
    const fs::path file = fileFor(name);
    std::error_code ec;
    if (!fs::exists(file, ec)) return std::nullopt;
    return file;
}

PresetLibrary::Entry PresetLibrary::save(const Preset& preset) { return write(preset, fileFor(preset.name)); }

PresetLibrary::Entry PresetLibrary::saveOver(const Entry& existing, const Preset& preset) {
    requireUser(existing, "shipped presets are read-only; use Save as");
    return write(preset, existing.file);
}

PresetLibrary::Entry PresetLibrary::rename(const Entry& entry, const std::string& newName) {
    requireUser(entry, "shipped presets cannot be renamed; use Save as to make your own copy");
    if (newName.find_first_not_of(" \t\r\n") == std::string::npos) throw PresetError("a preset name cannot be empty");
    Preset p = loadPreset(entry.file);
    p.name = newName;
    // Another preset of yours with that name, in whichever file ("Foo!" in
    // foo-2.json while "Foo" renamed keeps foo.json), would make two of one name.
    for (const PresetInfo& other : listPresets({userDir_}, nullptr))
        if (other.id != entry.id && lowerAscii(other.name) == lowerAscii(newName))
            throw PresetError("cannot rename to \"" + newName + "\": you already have the user preset \"" + other.name +
                              "\" (" + other.file.string() + "); choose another name");
    // The file as Save as numbers it (fileFor): the slug, then slug-2... A
    // name whose slug another preset's file holds ("Рыбы" and "魚" are both
    // "preset") takes the next free number, or keeps its own file.
    const fs::path target = freeFileFor(slugFor(newName), entry.id);
    if (target == entry.file) return write(p, entry.file);
    const Entry renamed = write(p, target);
    std::error_code ec;
    fs::remove(entry.file, ec);
    if (ec) {
        fs::remove(target, ec);  // keep the one copy, under the old name
        throw PresetError(entry.file.string() + ": cannot remove the old file, so the preset was not renamed");
    }
    return renamed;
}

void PresetLibrary::remove(const Entry& entry) {
    requireUser(entry, "shipped presets cannot be deleted");
    std::error_code ec;
    if (!fs::remove(entry.file, ec)) {
        throw PresetError(entry.file.string() + ": cannot delete the preset (" +
                          (ec ? ec.message() : std::string("the file is already gone")) + ")");
    }
}

Preset PresetLibrary::load(const Entry& entry) const { return loadPreset(entry.file); }

std::string PresetLibrary::slugFor(std::string_view name) {
    constexpr std::size_t kMaxLength = 64;  // file names stay far below the 255-byte limit
    std::string slug;
    bool pendingDash = false;
    // A '-' is written only before a letter or digit, so none starts or ends the slug.
    for (char c : name) {
        c = lowerAscii(c);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (pendingDash && !slug.empty()) slug += '-';
            pendingDash = false;
            slug += c;
        } else {
            pendingDash = true;
        }
        if (slug.size() >= kMaxLength) break;
    }
    return slug.empty() ? "preset" : slug;
}

}  // namespace mirofish
