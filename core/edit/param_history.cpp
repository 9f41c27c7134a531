#include "edit/param_history.hpp"

#include <utility>

namespace mirofish {

void ParamHistory::record(ParamId id, float before, float after) {
    if (!undo_.empty() && undo_.back().open) {
        Entry& top = undo_.back();
        if (!top.routes && top.changes.size() == 1 && top.changes.front().id == id) {
            Change& c = top.changes.front();
            c.after = after;
            // Dragged back to where it started: the drag changed nothing.
            if (c.before == c.after) dropOpenTop();
            return;
        }
        closeGroup();  // another parameter was touched
    }
    if (before == after) return;
    push(Entry{{Change{id, before, after}}, std::string(paramDef(id).label), true, std::nullopt, std::nullopt});
}

void ParamHistory::closeGroup() {
    if (!undo_.empty()) undo_.back().open = false;
    redoSetAside_.clear();
}

void ParamHistory::dropOpenTop() {
    undo_.pop_back();
    redo_ = std::move(redoSetAside_);
    redoSetAside_.clear();
}

void ParamHistory::recordAll(const Params& before, const Params& after, std::string label,
                             std::optional<RouteChange> routes, std::optional<PresetSwitch> preset) {
    Entry e{{}, std::move(label), false, std::nullopt, std::move(preset)};
    for (const ParamDef& d : paramRegistry())
        if (before.get(d.id) != after.get(d.id)) e.changes.push_back(Change{d.id, before.get(d.id), after.get(d.id)});
    if (routes && routes->before != routes->after) e.routes = std::move(routes);
    if (e.changes.empty() && !e.routes && !e.preset) return;
    closeGroup();
    push(std::move(e));
}

void ParamHistory::recordRoutes(RouteChange change, std::string label, bool dragging) {
    if (!undo_.empty() && undo_.back().open) {
        Entry& top = undo_.back();
        if (dragging && top.routes && top.changes.empty() && top.label == label) {
            top.routes->after = std::move(change.after);
            if (top.routes->before == top.routes->after) dropOpenTop();
            return;
        }
        closeGroup();
    }
    if (change.before == change.after) return;
    push(Entry{{}, std::move(label), dragging, std::move(change), std::nullopt});
}

void ParamHistory::push(Entry entry) {
    // An open entry may yet end where it started (dropOpenTop): until then
    // the redo steps are set aside, not lost.
    redoSetAside_.clear();
    if (entry.open) redoSetAside_ = std::move(redo_);
    redo_.clear();
    undo_.push_back(std::move(entry));
    if (undo_.size() > kMaxEntries) undo_.pop_front();
}

std::optional<HistoryStep> ParamHistory::undo(const Params& current, const std::optional<OpenPreset>& openNow) {
    if (undo_.empty()) return std::nullopt;
    redoSetAside_.clear();
    Entry e = std::move(undo_.back());
    undo_.pop_back();
    HistoryStep step{current, std::nullopt, std::nullopt};
    for (const Change& c : e.changes) step.params.set(c.id, c.before);
    if (e.routes) step.routes = e.routes->before;
    if (e.preset) {
        step.preset = e.preset->before;
        if (openNow) e.preset->after = *openNow;
    }
    e.open = false;  // after a redo, a new drag must not merge into it
    redo_.push_back(std::move(e));
    return step;
}

std::optional<HistoryStep> ParamHistory::redo(const Params& current, const std::optional<OpenPreset>& openNow) {
    if (redo_.empty()) return std::nullopt;
    redoSetAside_.clear();
    Entry e = std::move(redo_.back());
    redo_.pop_back();
    HistoryStep step{current, std::nullopt, std::nullopt};
    for (const Change& c : e.changes) step.params.set(c.id, c.after);
    if (e.routes) step.routes = e.routes->after;
    if (e.preset) {
        step.preset = e.preset->after;
        if (openNow) e.preset->before = *openNow;
    }
    undo_.push_back(std::move(e));
    return step;
}

std::string ParamHistory::undoText() const { return undo_.empty() ? "Undo" : "Undo " + undo_.back().label; }
std::string ParamHistory::redoText() const { return redo_.empty() ? "Redo" : "Redo " + redo_.back().label; }

void ParamHistory::renamePreset(const std::filesystem::path& file, const std::string& oldName,
                                const std::string& newName) {
    const auto rename = [&](OpenPreset& open) {
        if (!open.user || open.file != file || open.loaded.name != oldName) return;
        open.loaded.name = newName;
        open.running.name = newName;
    };
    const auto renameIn = [&](auto& entries) {
        for (Entry& entry : entries)
            if (entry.preset) {
                rename(entry.preset->before);
                rename(entry.preset->after);
            }
    };
    renameIn(undo_);
    renameIn(redo_);
    renameIn(redoSetAside_);
}

void ParamHistory::clear() {
    undo_.clear();
    redo_.clear();
    redoSetAside_.clear();
}

}  // namespace mirofish
