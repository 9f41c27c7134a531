// The editor's preset browser actions, undo/redo and the "modified" mark.
#include <QKeyEvent>
#include <algorithm>

#include "edit/param_morph.hpp"
#include "editor.hpp"

namespace mirofish::editor {

namespace {
bool sameObstacles(const std::vector<Obstacle>& a, const std::vector<Obstacle>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const Obstacle& x, const Obstacle& y) { return x.centre == y.centre && x.radius == y.radius; });
}

bool samePredators(const std::vector<Predator>& a, const std::vector<Predator>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Predator& x, const Predator& y) {
        return x.position == y.position && x.behaviour == y.behaviour && x.path == y.path;
    });
}

bool sameFields(const std::vector<ForceField>& a, const std::vector<ForceField>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ForceField& x, const ForceField& y) {
        return x.position == y.position && x.radius == y.radius && x.strength == y.strength && x.kind == y.kind;
    });
}

// Replaces the simulation's interaction objects (keeping the pointer's
// transient fields out of it) with the preset's.
void setObjects(SimHost::Context& c, const Scene& scene) {
    std::vector<std::uint32_t> ids;
    for (const ForceField& f : c.sim.scene().fields) ids.push_back(f.id);
    for (std::uint32_t id : ids) c.sim.removeForceField(id);
    c.transient.clear();
    c.pointerField.reset();
    for (const ForceField& f : scene.fields) c.sim.addForceField(f);
    c.sim.setPredators(scene.predators);
    c.sim.setObstacles(scene.obstacles);
    c.sim.setLeader(scene.leader);
}
}  // namespace

QString Editor::presetName() const { return QString::fromStdString(loaded_.name); }
QString Editor::presetDescription() const { return QString::fromStdString(loaded_.description); }
int Editor::presetRow() const {
    // A file of yours is the open preset's only while the open preset is
    // that file's: deleted while open, its file name may have gone since to
    // another preset of yours (renamed or saved as), which is not the one open.
    const int row = presets_->rowOfFile(loadedFile_);
    const PresetLibrary::Entry* e = presets_->entry(row);
    return e && e->user != loadedIsUser_ ? -1 : row;
}

QString Editor::presetOrigin() const {
    if (loadedIsUser_) return {};
    if (presetRow() >= 0) return tr("shipped");
    // Its file holds another preset of yours now.
    if (presets_->rowOfFile(loadedFile_) >= 0) return tr("not saved");
    std::error_code ec;
    if (std::filesystem::is_regular_file(loadedFile_, ec))
        return tr("from %1").arg(QString::fromStdString(loadedFile_.filename().string()));
    return tr("not saved");
}

Preset Editor::currentPreset() {
    // Fresh from the simulation thread: what is saved is what "modified" compares.
    const SimStats& s = currentStats();
    Preset p = loaded_;
    p.scene.params = presetParams();
    p.scene.fishCount = presetFishCount();
    p.scene.seed = s.seed;
    // The preset's own world, which the view's does not replace while W is
    // on (a --world size included: the file's was written).
    p.scene.width = static_cast<float>(ownWorld_.width());
    p.scene.height = static_cast<float>(ownWorld_.height());
    // Where they were put, not where they have chased to since.
    p.scene.predators = s.predatorsAsSet;
    p.scene.obstacles = s.obstacles;
    p.scene.fields = s.fields;
    p.routes = routes_.matrix().routes;
    return p;
}

std::uint32_t Editor::presetFishCount() const {
    // More fish than the editor runs, the count untouched: the preset keeps
    // its own (render and simulate take them all).
    const auto running = static_cast<std::uint32_t>(fishCount_);
    const std::uint32_t own = loaded_.scene.fishCount;
    return running == std::min<std::uint32_t>(own, kMaxFish) ? own : running;
}

Params Editor::presetParams() const { return morph_ == Morph::None ? params_.params() : loaded_.scene.params; }

void Editor::updateModified() {
    const Scene& a = loaded_.scene;
    const SimStats& s = lastStats_;
    // Where the predators were put: a world shrunk under them (the view, with
    // W on) moves them in the school, not there.
    const bool predatorsEdited = !samePredators(s.predatorsAsSet, a.predators);
    // The preset's own world, whether or not the view's replaces it (W).
    const bool worldChanged =
        static_cast<float>(ownWorld_.width()) != a.width || static_cast<float>(ownWorld_.height()) != a.height;
    const bool modified = !(presetParams() == a.params) || presetFishCount() != a.fishCount ||
                          s.seed != a.seed || predatorsEdited || worldChanged ||
                          !sameObstacles(s.obstacles, a.obstacles) || !sameFields(s.fields, a.fields) ||
                          !(routes_.matrix() == presetAudioRoutes(loaded_));
    if (modified == modified_) return;
    modified_ = modified;
    emit modifiedChanged();
}

OpenPreset Editor::openPreset() { return {currentPreset(), loaded_, loadedFile_, loadedIsUser_}; }

void Editor::applyPreset(const Preset& preset, const OpenPreset& before) {
    const RouteChange routes{routes_.matrix().routes, presetAudioRoutes(preset).routes};
    // The whole preset open before, so that an undo brings back the fish,
    // the objects placed and the seed too, not the parameters alone.
    history_.recordAll(presetParams(), preset.scene.params, "Load " + preset.name, routes,
                       PresetSwitch{before, {preset, preset, loadedFile_, loadedIsUser_}});
    run(preset, preset);
    emit historyChanged();
}

void Editor::run(const Preset& running, const Preset& loaded) {
    // An object held by the mouse belongs to the school replaced (Ctrl+Z
    // mid-drag): the drag took the new school's object nearest to it.
    endObjectDrag();
    ++presetOpenings_;
    params_.setAll(running.scene.params);
    setRoutes(presetAudioRoutes(running).routes);
    morph_ = Morph::None;
    const Scene scene = withinFishCap(running.scene);
    fishCount_ = static_cast<int>(scene.fishCount);
    ownWorld_ = QSizeF(scene.width, scene.height);
    const QSizeF world = worldAsked();
    objectsSent_ = host_->post([scene, world](SimHost::Context& c) {
        c.morph.reset();
        c.sim.setParams(scene.params);
        c.sim.setWorldSize(static_cast<float>(world.width()), static_cast<float>(world.height()));
        // The objects first: the school spawns outside the preset's
        // obstacles, once (the selection goes below).
        setObjects(c, scene);
        c.sim.reset(scene.seed, scene.fishCount);
        c.overlays.selectedId.reset();  // a fish of the school it replaced
    });
    loaded_ = loaded;
    // Until the simulation thread reports, assume it matches what was sent.
    lastStats_.seed = scene.seed;
    lastStats_.worldWidth = static_cast<float>(world.width());
    lastStats_.worldHeight = static_cast<float>(world.height());
    lastStats_.predators = lastStats_.predatorsAsSet = scene.predators;
    lastStats_.obstacles = scene.obstacles;
    lastStats_.fields = scene.fields;
    emit presetChanged();
    emit fishCountChanged();
    emit schoolReplaced();
    updateModified();
}

void Editor::reportApplied(const Preset& preset, const QString& done) {
    if (const QString note = fishCapNote(preset); !note.isEmpty()) showMessage(note, true);
    else showMessage(done, false);
}

bool Editor::reportPresetError(const std::exception& e) {
    showMessage(QString::fromStdString(e.what()), true);
    return false;
}

bool Editor::reportListedPresetError(const std::exception& e, const std::filesystem::path& file) {
    // The file still reads: the error was another (a name taken, a folder
    // not writable), and the list stays as it is, its selection too (read
    // again, it showed the open preset selected, for the next Rename).
    try {
        mirofish::loadPreset(file);
        return reportPresetError(e);
    } catch (const std::exception&) {
    }
    presets_->refresh();
    // The open preset's own file gone: it is open only in memory now.
    std::error_code ec;
    if (loadedIsUser_ && !std::filesystem::exists(loadedFile_, ec)) loadedIsUser_ = false;
    emit presetChanged();
    return reportPresetError(e);
}

bool Editor::loadPreset(int row) {
    const PresetLibrary::Entry* e = presets_->entry(row);
    if (!e) return false;
    const std::filesystem::path file = e->file;  // e goes with a refresh of the list
    try {
        const Preset p = presets_->library().load(*e);
        const OpenPreset before = openPreset();
        loadedIsUser_ = e->user;
        loadedFile_ = e->file;
        applyPreset(p, before);
        reportApplied(p, tr("Loaded %1").arg(QString::fromStdString(p.name)));
        return true;
    } catch (const std::exception& ex) {
        return reportListedPresetError(ex, file);
    }
}

bool Editor::loadPresetFile(const QString& file) {
    try {
        const Preset p = mirofish::loadPreset(std::filesystem::path(file.toStdString()));
        const int row = presets_->rowOfFile(file.toStdString());
        const PresetLibrary::Entry* e = presets_->entry(row);
        const OpenPreset before = openPreset();
        loadedIsUser_ = e && e->user;
        loadedFile_ = e ? e->file : std::filesystem::path(file.toStdString());
        applyPreset(p, before);
        reportApplied(p, tr("Loaded %1").arg(file));
        return true;
    } catch (const std::exception& ex) {
        return reportPresetError(ex);
    }
}

bool Editor::savePreset() {
    if (!loadedIsUser_) {
        const QString origin = presetOrigin();
        const QString why = origin == tr("shipped")     ? tr("'%1' is a shipped preset and read-only")
                            : origin == tr("not saved") ? tr("'%1' has no file any more")
                                                        : tr("'%1' was opened from a file outside your presets");
        showMessage(why.arg(presetName()) + tr(": use Save as to keep your changes."), true);
        return false;
    }
    try {
        const PresetLibrary::Entry* e = presets_->entry(presetRow());
        // Broken since it was opened (edited by hand): it is not replaced
        // unasked, with what it holds, whether or not the list was read
        // again since (still listed, it was written over without a word).
        std::error_code ec;
        if (std::filesystem::exists(loadedFile_, ec)) {
            try {
                mirofish::loadPreset(loadedFile_);
            } catch (const std::exception& broken) {
                throw PresetError(std::string(broken.what()) + "; mend the file, or use Save as");
            }
            // Mended since, as that advice asks: back in the list, saved over.
            if (!e) {
                presets_->refresh();
                e = presets_->entry(presetRow());
            }
        }
        if (!e) throw PresetError("the preset file " + loadedFile_.string() + " is gone; use Save as");
        const Preset p = currentPreset();
        presets_->library().saveOver(*e, p);
        loaded_ = p;
        refreshPresetsAndSay(tr("Saved %1").arg(presetName()));
        updateModified();
        return true;
    } catch (const std::exception& ex) {
        return reportPresetError(ex);
    }
}

void Editor::refreshPresetsAndSay(const QString& done) {
    const QStringList problems = presets_->refresh();
    if (problems.isEmpty())
        showMessage(done, false);
    else
        showMessage(done + '\n' + unreadableNote(problems), true);
}

QString Editor::unreadableNote(const QStringList& problems) {
    // The first few: a folder of other programs' JSON files listed hundreds,
    // and the message filled the view. `mirofish presets` lists them all.
    constexpr qsizetype kNamed = 3;
    if (problems.size() <= kNamed) return tr("Some presets could not be read: %1").arg(problems.join("; "));
    // One arg() for all: a second one would read a "%2" in a file name as its place.
    return tr("%1 preset files could not be read: %2; and %3 more (mirofish presets lists them all)")
        .arg(QString::number(problems.size()), problems.first(kNamed).join("; "),
             QString::number(problems.size() - kNamed));
}

bool Editor::presetNameTaken(const QString& name) const {
    const auto file = presets_->library().savedAs(name.trimmed().toStdString());
    std::error_code ec;
    return file && !(loadedIsUser_ && std::filesystem::equivalent(*file, loadedFile_, ec));
}

QString Editor::presetTakingName(const QString& name) const {
    const std::string own = nameInFileSavedAs(name.trimmed().toStdString());
    return own.empty() ? name.trimmed() : QString::fromStdString(own);
}

std::string Editor::nameInFileSavedAs(const std::string& name) const {
    const auto file = presets_->library().savedAs(name);
    if (!file) return {};
    try {
        return mirofish::loadPreset(*file).name;
    } catch (const std::exception&) {
        return {};
    }
}

bool Editor::savePresetAs(const QString& name, bool replace) {
    if (name.trimmed().isEmpty()) {
        showMessage(tr("A preset needs a name."), true);
        return false;
    }
    if (!replace && presetNameTaken(name)) {
        showMessage(tr("You already have a preset called '%1': replace it, or choose another name.")
                        .arg(presetTakingName(name)),
                    true);
        return false;
    }
    try {
        Preset p = currentPreset();
        p.name = name.trimmed().toStdString();
        const std::string replacedName = nameInFileSavedAs(p.name);
        const PresetLibrary::Entry e = presets_->library().save(p);
        // A preset of yours saved over under a name that differs (its case,
        // a replace) is renamed in the history, as Rename does: undo back
        // to a load of it took the new name for another preset that took
        // its file, and opened it as not saved, Save refused.
        if (!replacedName.empty() && replacedName != p.name) history_.renamePreset(e.file, replacedName, p.name);
        loaded_ = p;
        loadedIsUser_ = true;
        loadedFile_ = e.file;
        refreshPresetsAndSay(tr("Saved %1 as %2").arg(name.trimmed(), QString::fromStdString(e.file.string())));
        emit presetChanged();
        updateModified();
        return true;
    } catch (const std::exception& ex) {
        return reportPresetError(ex);
    }
}

bool Editor::renamePreset(int row, const QString& name) {
    const PresetLibrary::Entry* e = presets_->entry(row);
    if (!e) return false;
    const std::filesystem::path file = e->file;  // e goes with a refresh of the list
    try {
        const bool wasLoaded = row == presetRow();
        const std::string oldName = e->name;
        const PresetLibrary::Entry renamed = presets_->library().rename(*e, name.trimmed().toStdString());
        if (renamed.file == file) history_.renamePreset(file, oldName, renamed.name);
        refreshPresetsAndSay(tr("Renamed to %1").arg(name.trimmed()));
        if (wasLoaded) {
            loadedFile_ = renamed.file;
            loaded_.name = renamed.name;
            emit presetChanged();
        }
        // Read again, the list selects the open preset: a second Rename (a
        // typo mended) would rename that one.
        emit presetSelected(presets_->rowOfFile(renamed.file));
        return true;
    } catch (const std::exception& ex) {
        return reportListedPresetError(ex, file);
    }
}

bool Editor::deletePreset(int row) {
    const PresetLibrary::Entry* e = presets_->entry(row);
    if (!e) return false;
    const std::filesystem::path file = e->file;  // e goes with a refresh of the list
    try {
        const QString name = QString::fromStdString(e->name);
        const bool wasOpen = row == presetRow();
        presets_->library().remove(*e);
        if (wasOpen) loadedIsUser_ = false;  // still open, now only in memory
        refreshPresetsAndSay(tr("Deleted %1").arg(name));
        emit presetChanged();
        return true;
    } catch (const std::exception& ex) {
        return reportListedPresetError(ex, file);
    }
}

bool Editor::morphToNeighbour(int step, double seconds) {
    const int count = presets_->rowCount();
    if (count == 0) return false;
    const int open = presetRow();
    const int row = open < 0 ? (step > 0 ? 0 : count - 1) : ((open + step) % count + count) % count;
    return morphToPreset(row, seconds);
}

bool Editor::morphToPreset(int row, double seconds) {
    const PresetLibrary::Entry* e = presets_->entry(row);
    if (!e) return false;
    const std::filesystem::path file = e->file;  // e goes with a refresh of the list
    try {
        const Preset target = presets_->library().load(*e);
        const OpenPreset before = openPreset();
        // The school swims on, not reset: its seed stays, and the preset is
        // the target with it (compared with the target's own seed, a morph
        // left the preset marked modified for good).
        Preset arrived = target;
        arrived.scene.seed = lastStats_.seed;
        const RouteChange routes{routes_.matrix().routes, presetAudioRoutes(target).routes};
        // The whole preset open before, as for a load: an undo brings back its
        // name, file, fish and objects too, so that a save after it cannot
        // write the earlier preset's parameters into the target's file.
        history_.recordAll(before.running.scene.params, target.scene.params, "Morph to " + target.name, routes,
                           PresetSwitch{before, {arrived, arrived, e->file, e->user}});
        // Parameters glide; the routes switch at the start (they act on the
        // gliding values). The sliders stay where they are until the stats
        // report the glide (set to the target here, they jumped there and
        // back before gliding).
        setRoutes(routes.after);
        morph_ = Morph::Begun;
        // The objects switch at the start: one held by the mouse belongs to
        // the school left (the drag went on with the target's object of its
        // place in the list, into the target's saved preset).
        endObjectDrag();
        ++presetOpenings_;
        const Scene scene = withinFishCap(target.scene);
        fishCount_ = static_cast<int>(scene.fishCount);
        ownWorld_ = QSizeF(scene.width, scene.height);
        const bool ownWorld = !worldFollowsView_;
        // Parameters glide; the fish count, the world and the objects switch at the start.
        objectsSent_ = host_->post([scene, seconds, ownWorld](SimHost::Context& c) {
            c.morph.emplace(c.sim.params(), scene.params, seconds);
            c.morphElapsed = 0;
            // The world first: fish added by the count spawn across it, not the old one.
            // The school swims on in it, none pressed onto a smaller world's walls.
            if (ownWorld) c.sim.scaleWorldTo(scene.width, scene.height);
            // The objects before the count: fish added spawn outside the target's obstacles.
            setObjects(c, scene);
            c.setFishCount(scene.fishCount);
        });
        loaded_ = arrived;
        loadedIsUser_ = e->user;
        loadedFile_ = e->file;
        if (ownWorld) lastStats_.worldWidth = scene.width, lastStats_.worldHeight = scene.height;
        lastStats_.predators = lastStats_.predatorsAsSet = scene.predators;
        lastStats_.obstacles = scene.obstacles;
        lastStats_.fields = scene.fields;
        emit presetChanged();
        emit fishCountChanged();
        emit historyChanged();
        reportApplied(target, tr("Morphing to %1 over %2 s").arg(QString::fromStdString(target.name), QString::number(seconds)));
        return true;
    } catch (const std::exception& ex) {
        return reportListedPresetError(ex, file);
    }
}

void Editor::onParamEdited(ParamId id, float before, float after) {
    history_.record(id, before, after);
    morph_ = Morph::None;
    // Every parameter as the sliders show it, not the edited one alone: an
    // edit ends a morph where the sliders saw it, and the simulation's glide
    // had gone on since.
    host_->post([params = params_.params()](SimHost::Context& c) {
        c.morph.reset();
        c.sim.setParams(params);
    });
    emit historyChanged();
    updateModified();
}

void Editor::applyParamsFromHistory(const Params& params) {
    params_.setAll(params);
    morph_ = Morph::None;
    host_->post([params](SimHost::Context& c) {
        c.morph.reset();
        c.sim.setParams(params);
    });
    emit historyChanged();
    updateModified();
}

void Editor::applyHistoryStep(const HistoryStep& step) {
    if (step.preset) {
        // A load or a morph undone or redone: that preset runs again from its
        // seed. A preset of yours is compared with what its file holds now
        // (saved over since), with the step's seed (a morph's is the school's);
        // renamed or deleted since, it is open only in memory, and Save as keeps it.
        // Its file name may have gone since to another preset of yours (a
        // Save as or Rename after the delete or rename), told by its other
        // name: Save wrote the one undone to over that preset.
        // Broken since (edited by hand), it is still yours, open as it was,
        // and said so: it was taken for gone ("has no file any more").
        OpenPreset open = *step.preset;
        std::string broken;
        if (open.user) {
            try {
                Preset now = mirofish::loadPreset(open.file);
                if (now.name == open.loaded.name) {
                    now.scene.seed = open.loaded.scene.seed;
                    open.loaded = std::move(now);
                } else {
                    open.user = false;
                }
            } catch (const std::exception& e) {
                std::error_code ec;
                if (std::filesystem::is_regular_file(open.file, ec)) broken = e.what();
                else open.user = false;
            }
        }
        loadedFile_ = open.file;
        loadedIsUser_ = open.user;
        run(open.running, open.loaded);
        if (!broken.empty())
            showMessage(tr("%1; it is open as it was. Mend the file, or use Save as.").arg(QString::fromStdString(broken)),
                        true);
        emit historyChanged();
        return;
    }
    if (step.routes) setRoutes(*step.routes);
    // A step of routes alone leaves the parameters as they are, and a morph
    // under way gliding (presetParams is then the target's, which setting
    // would end the glide there at once).
    if (step.params == presetParams()) {
        emit historyChanged();
        updateModified();
        return;
    }
    applyParamsFromHistory(step.params);
}

void Editor::undo() {
    if (!history_.canUndo()) return;
    if (auto step = history_.undo(presetParams(), openPreset())) applyHistoryStep(*step);
}

void Editor::redo() {
    if (!history_.canRedo()) return;
    if (auto step = history_.redo(presetParams(), openPreset())) applyHistoryStep(*step);
}

bool Editor::undoRedoKey(int key, int modifiers) {
    const Qt::KeyboardModifiers held(modifiers);
    const QKeyEvent press(QEvent::KeyPress, key, held);
    if (press.matches(QKeySequence::Undo)) {
        undo();
        return true;
    }
    const bool redoKey = press.matches(QKeySequence::Redo) ||
                         (key == Qt::Key_Z && held == (Qt::ControlModifier | Qt::ShiftModifier)) ||
                         (key == Qt::Key_Y && held == Qt::ControlModifier);
    if (redoKey) redo();
    return redoKey;
}

void Editor::resetAllParams() {
    const Params before = presetParams();
    const Params defaults;
    if (before == defaults) return;
    history_.recordAll(before, defaults, "Reset all parameters");
    applyParamsFromHistory(defaults);
}

}  // namespace mirofish::editor
