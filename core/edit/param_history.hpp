#pragma once
// Undo and redo of parameter edits and audio route edits. The editor records
// every change it makes to the live parameters and to the route table;
// undo/redo hand back what to apply.
//
// A slider drag produces many records for one parameter: while the top entry
// is "open" they merge into it (its original `before`, the latest `after`),
// so the whole drag is one undo step. closeGroup() ends the drag.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "audio/modulation.hpp"
#include "params/params.hpp"

namespace mirofish {

// The audio routes before and after an edit.
struct RouteChange {
    std::vector<ModRoute> before, after;
};

// What an undo or redo puts back: the parameters, and the routes when the
// entry changed them.
struct HistoryStep {
    Params params;
    std::optional<std::vector<ModRoute>> routes;
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
    // they changed too. Nothing differs: no entry.
    void recordAll(const Params& before, const Params& after, std::string label,
                   std::optional<RouteChange> routes = std::nullopt);
    // A change of the route table. While the top entry is an open route edit
    // with the same label (an amount slider being dragged) it merges into it.
    void recordRoutes(RouteChange change, std::string label);

    // `current` with the top entry's parameters put back (undo) or set again
    // (redo); parameters the entry did not touch keep their current values;
    // `routes` is set when the entry changed them. nullopt when there is
    // nothing to undo/redo.
    std::optional<HistoryStep> undo(const Params& current);
    std::optional<HistoryStep> redo(const Params& current);

    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    // "Undo Max speed", "Redo Load preset"; plain "Undo"/"Redo" when there is none.
    std::string undoText() const;
    std::string redoText() const;
    void clear();

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
    };

    void push(Entry entry);

    std::deque<Entry> undo_;  // newest at the back
    std::vector<Entry> redo_;  // next to redo at the back
};

}  // namespace mirofish
