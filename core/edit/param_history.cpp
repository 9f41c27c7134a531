#include "edit/param_history.hpp"

#include <utility>

namespace mirofish {

void ParamHistory::record(ParamId id, float before, float after) {
    if (!undo_.empty() && undo_.back().open) {
        Entry& top = undo_.back();
        if (top.changes.size() == 1 && top.changes.front().id == id) {
            Change& c = top.changes.front();
            c.after = after;  // an open top is the latest action, so redo is already empty
            // Dragged back to where it started: the drag changed nothing.
            if (c.before == c.after) undo_.pop_back();
            return;
        }
        top.open = false;  // another parameter was touched
    }
    if (before == after) return;
    push(Entry{{Change{id, before, after}}, std::string(paramDef(id).label), true});
}

void ParamHistory::closeGroup() {
    if (!undo_.empty()) undo_.back().open = false;
}

void ParamHistory::recordAll(const Params& before, const Params& after, std::string label) {
    Entry e{{}, std::move(label), false};
    for (const ParamDef& d : paramRegistry())
        if (before.get(d.id) != after.get(d.id)) e.changes.push_back(Change{d.id, before.get(d.id), after.get(d.id)});
    if (e.changes.empty()) return;
    closeGroup();
    push(std::move(e));
}

void ParamHistory::push(Entry entry) {
    redo_.clear();
    undo_.push_back(std::move(entry));
    if (undo_.size() > kMaxEntries) undo_.pop_front();
}

std::optional<Params> ParamHistory::undo(const Params& current) {
    if (undo_.empty()) return std::nullopt;
    Entry e = std::move(undo_.back());
    undo_.pop_back();
    Params p = current;
    for (const Change& c : e.changes) p.set(c.id, c.before);
    e.open = false;  // after a redo, a new drag must not merge into it
    redo_.push_back(std::move(e));
    return p;
}

std::optional<Params> ParamHistory::redo(const Params& current) {
    if (redo_.empty()) return std::nullopt;
    Entry e = std::move(redo_.back());
    redo_.pop_back();
    Params p = current;
    for (const Change& c : e.changes) p.set(c.id, c.after);
    undo_.push_back(std::move(e));
    return p;
}

std::string ParamHistory::undoText() const { return undo_.empty() ? "Undo" : "Undo " + undo_.back().label; }
std::string ParamHistory::redoText() const { return redo_.empty() ? "Redo" : "Redo " + redo_.back().label; }

void ParamHistory::clear() {
    undo_.clear();
    redo_.clear();
}

}  // namespace mirofish
