#pragma once
// The presets the editor's browser shows: the shipped ones (read-only
// directories, earlier ones win on equal ids) and the user's own directory,
// where presets are saved, overwritten, renamed and deleted. A user preset's
// id is its file name without .json, a slug of its name; it may equal a
// shipped id, and both are listed.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/preset.hpp"

namespace mirofish {

class PresetLibrary {
public:
    struct Entry {
        std::string id;
        std::string name;
        std::string description;
        std::filesystem::path file;
        bool user = false;
    };

    PresetLibrary(std::vector<std::filesystem::path> shippedDirs, std::filesystem::path userDir);

    // Shipped and user presets together, sorted by name ignoring ASCII case.
    // Files that fail to load are left out and described in `problems`
    // ("<file>: <what is wrong>").
    std::vector<Entry> entries(std::vector<std::string>* problems = nullptr) const;

    // Saves into the user directory (created if missing) as <slug>.json. A
    // user preset of the same name (ignoring ASCII case) is overwritten; if
    // the slug is taken by a differently named one, or is a shipped preset's
    // id (which would hide it from `--preset ID`), -2, -3, ... is appended.
    Entry save(const Preset& preset);
    // The file of yours that save() would overwrite for this name, if any.
    std::optional<std::filesystem::path> savedAs(const std::string& name) const;
    // Overwrites a user preset's file, whatever the preset's name.
    Entry saveOver(const Entry& existing, const Preset& preset);
    // Changes the name in the file and moves the file to the new slug.
    Entry rename(const Entry& entry, const std::string& newName);
    void remove(const Entry& entry);
    Preset load(const Entry& entry) const;

    // Lowercase ASCII letters and digits; every other run becomes one '-';
    // no '-' at either end; at most 64 characters; "preset" if nothing is left.
    static std::string slugFor(std::string_view name);

    const std::filesystem::path& userDir() const { return userDir_; }

private:
    // Where save() writes a preset of this name.
    std::filesystem::path fileFor(const std::string& name) const;
    // The first of slug.json, slug-2.json... that is not there and no
    // shipped preset's id, or that is the file of the preset `ownId`.
    std::filesystem::path freeFileFor(const std::string& slug, std::string_view ownId = {}) const;
    Entry write(const Preset& preset, const std::filesystem::path& file);
    // The shipped folders but your own, should one of them be it.
    std::vector<std::filesystem::path> shippedDirs() const;

    std::vector<std::filesystem::path> shippedDirs_;
    std::filesystem::path userDir_;
};

}  // namespace mirofish
