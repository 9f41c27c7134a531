#pragma once
// Undo and redo of parameter edits, audio route edits, preset loads and morphs. The
// editor records every change it makes to the live parameters and to the
// route table; undo/redo hand back what to apply.
//
// A slider drag produces many records for one parameter: while the top entry
// is "open" they merge into it (its original `before`, the latest `after`),
// so the whole drag is one undo step. closeGroup() ends the drag.
#include <cstddef>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "audio/modulation.hpp"
#include "io/preset.hpp"
#include "params/params.hpp"

namespace mirofish {

// The audio routes before and after an edit.
struct RouteChange {
    std::vector<ModRoute> before, after;
};

// The preset open in the editor: what runs (as edited: its parameters,
// routes, fish, seed, world and objects), the preset it is compared with for
// "modified", and that preset's file.
struct OpenPreset {
    Preset running, loaded;
    std::filesystem::path file;
    bool user = false;  // the file is one of the user's presets
};

// A load or a morph: the preset open before and after it.
struct PresetSwitch {
    OpenPreset before, after;
};

// What an undo or redo puts back: the parameters, the routes when the entry
// changed them, and the whole open preset when the entry was a load or a morph.
struct HistoryStep {
    Params params;
    std::optional<std::vector<ModRoute>> routes;
    std::optional<OpenPreset> preset;
};

class ParamHistory {
public:
    static constexpr std::size_t kMaxEntries = 500;  // older entries are dropped

    // A change of one parameter. Clears the redo list unless it changes
    // nothing (before == after once merged), which leaves the history as it was.
    void record(ParamId id, float before, float after);
    // The next record starts a new entry even for the same parameter.
    void closeGroup();
    // One closed entry for everything that differs between the two (loading a
    // preset, resetting to defaults), shown as `label`, with the routes when
    // they changed too, and the open preset for a load or a morph (which is an entry
    // even when the parameters and routes are the same). Nothing differs: no
    // entry.
    void recordAll(const Params& before, const Params& after, std::string label,
                   std::optional<RouteChange> routes = std::nullopt, std::optional<PresetSwitch> preset = std::nullopt);
    // A change of the route table: one undo step, or, while `dragging` (an
    // amount slider held), records with the same label merge into one entry
    // until closeGroup(), as a parameter's drag does.
    void recordRoutes(RouteChange change, std::string label, bool dragging);

    // `current` with the top entry's parameters put back (undo) or set again
    // (redo); parameters the entry did not touch keep their current values;
    // `routes` is set when the entry changed them. nullopt when there is
    // nothing to undo/redo. `openNow`, the preset open at the moment, takes
    // the place of the side of a load or a morph it leaves: what was done
    // since (objects placed, fish, R) comes back with a redo, or an undo
    // after it, instead of the preset as it was loaded.
    std::optional<HistoryStep> undo(const Params& current, const std::optional<OpenPreset>& openNow = std::nullopt);
    std::optional<HistoryStep> redo(const Params& current, const std::optional<OpenPreset>& openNow = std::nullopt);

    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    // "Undo Max speed", "Redo Load preset"; plain "Undo"/"Redo" when there is none.
    std::string undoText() const;
    std::string redoText() const;
    void clear();
    // A preset of the user's renamed where it is, its file kept (only the
    // name's case or punctuation changed): the loads and morphs that open it
    // open it by its new name. Undone to, a preset of the user's whose file
    // now holds another name is taken for another preset that took the file.
    void renamePreset(const std::filesystem::path& file, const std::string& oldName, const std::string& newName);

private:
    struct Change {
        ParamId id;
        float before;
        float after;
    };
    struct Entry {
        std::vector<Change> changes;
        std::string label;
        bool open = false;
        std::optional<RouteChange> routes;
        std::optional<PresetSwitch> preset;
    };

    void push(Entry entry);
    // The open top entry changed nothing after all: gone, and the redo steps
    // its first record set aside come back.
    void dropOpenTop();

    std::deque<Entry> undo_;  // newest at the back
    std::vector<Entry> redo_;  // next to redo at the back
    std::vector<Entry> redoSetAside_;  // while the top entry is open
};

}  // namespace mirofish
