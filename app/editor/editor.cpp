#include "editor.hpp"

#include <QQmlEngine>
#include <QRandomGenerator>
#include <algorithm>
#include <thread>

#include "behind_cause.hpp"
#include "healthy_neighbours.hpp"
#include "sim/inspect.hpp"

namespace mirofish::editor {

namespace {
Editor* gInstance = nullptr;
constexpr int kStatsIntervalMs = 250;
// Steps this long leave the school all but frozen (two a second at most):
// the message line then says why and what helps.
constexpr double kSlowStepSeconds = 0.5;

// fish and perception: the user's settings, which the step in progress may
// already run with before the simulation thread has published them.
// Numbers in plain digits and a decimal point whatever the locale, as the
// panel's fields and the rest of the messages write them (a German locale
// wrote "200.000 fish" beside "2.5 s").
QString slowStepText(const SimStats& s, double runningSeconds, int fish, float perception) {
    const QString settings = QObject::tr("%1 fish, perception radius %2 px")
                                 .arg(QString::number(fish))
                                 .arg(QString::number(perception, 'f', 0));
    const QString help = QObject::tr("A smaller radius or fewer fish brings it back to speed.");
    // Before a step at these settings ends, its neighbours are not known yet.
    if (runningSeconds * 1000.0 > s.stepMilliseconds)
        return QObject::tr("The simulation is crawling: one step has taken %1 s so far (%2). %3 Edits apply when "
                           "this step ends.")
            .arg(runningSeconds, 0, 'f', 1)
            .arg(settings, help);
    return QObject::tr("The simulation is crawling: each step takes %1 s, with %2 neighbours per fish (%3). %4")
        .arg(s.stepMilliseconds / 1000.0, 0, 'f', 1)
        .arg(QString::number(s.metrics.meanNeighbours, 'f', 0), settings, help);
}
}  // namespace

Scene withinFishCap(Scene scene) {
    scene.fishCount = std::min<std::uint32_t>(scene.fishCount, Editor::kMaxFish);
    return scene;
}

Editor* Editor::create(QQmlEngine*, QJSEngine*) {
    // Owned by runEditor, not by the engine.
    QJSEngine::setObjectOwnership(gInstance, QJSEngine::CppOwnership);
    return gInstance;
}

void Editor::setInstance(Editor* editor) { gInstance = editor; }

Editor::Editor(const Preset& initial, std::filesystem::path initialFile, bool initialIsUser,
               std::vector<std::filesystem::path> presetDirs, std::filesystem::path userDir, bool startPaused,
               QObject* parent)
    : QObject(parent),
      presets_(new PresetListModel(PresetLibrary(std::move(presetDirs), std::move(userDir)), this)),
      audioFeed_(std::make_shared<AudioFeed>()),
      host_(std::make_unique<SimHost>(withinFishCap(initial.scene),
                                      static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), audioFeed_,
                                      startPaused)),
      audio_(new AudioController(audioFeed_, this)),
      paused_(startPaused),
      fishCount_(static_cast<int>(withinFishCap(initial.scene).fishCount)),
      loaded_(initial),
      loadedIsUser_(initialIsUser),
      loadedFile_(std::move(initialFile)) {
    params_.setAll(initial.scene.params);
    // What the simulation starts with, until its first report.
    lastStats_.seed = initial.scene.seed;
    lastStats_.worldWidth = initial.scene.width;
    lastStats_.worldHeight = initial.scene.height;
    ownWorld_ = QSizeF(initial.scene.width, initial.scene.height);
    lastStats_.fishCount = static_cast<std::uint32_t>(fishCount_);
    lastStats_.predators = lastStats_.predatorsAsSet = initial.scene.predators;
    lastStats_.obstacles = initial.scene.obstacles;
    lastStats_.fields = initial.scene.fields;
    connect(&params_, &ParamListModel::edited, this, &Editor::onParamEdited);
    connect(&params_, &ParamListModel::gestureEnded, this, [this] { history_.closeGroup(); });
    setRoutes(presetAudioRoutes(initial).routes);
    connect(&routes_, &RouteListModel::edited, this, [this](const QString& label, bool dragging) {
        history_.recordRoutes({routesBefore_, routes_.matrix().routes}, label.toStdString(), dragging);
        routesBefore_ = routes_.matrix().routes;
        host_->post([m = routes_.matrix()](SimHost::Context& c) { c.routes = m; });
        emit historyChanged();
        updateModified();
    });
    connect(&routes_, &RouteListModel::gestureEnded, this, [this] { history_.closeGroup(); });
    // The route table's live column follows the meters (30 times a second),
    // and rests when nothing drives: the simulation thread's last values are
    // those of the last step the audio drove.
    connect(audio_, &AudioController::metersChanged, this, [this] {
        if (audio_->driving()) routes_.setLive(host_->routeValues());
        else routes_.clearLive();
    });
    connect(audio_, &AudioController::problem, this, [this](const QString& text) { showMessage(text, true); });
    // A paused school takes no step that would read the audio again: a new
    // source or transport state is drawn at once all the same.
    for (const auto changed : {&AudioController::sourceChanged, &AudioController::transportChanged})
        connect(audio_, changed, this, [this] { host_->post([](SimHost::Context&) {}); });

    // The simulation thread only posts a call; the flag keeps at most one in
    // the event queue however fast it steps.
    host_->setFrameReady([this] {
        if (!frameQueued_.exchange(true, std::memory_order_acq_rel))
            QMetaObject::invokeMethod(this, [this] {
                frameQueued_.store(false, std::memory_order_release);
                emit frameReady();
            }, Qt::QueuedConnection);
    });
    const QStringList problems = presets_->refresh();
    // A file of yours opened by its path is yours, whoever named it, and
    // known by the list's name for it: the history finds a renamed preset by
    // that name ('mine.json' typed as a relative path came back from an undo
    // as not saved).
    if (const PresetLibrary::Entry* e = presets_->entry(presets_->rowOfFile(loadedFile_))) {
        loadedIsUser_ = e->user;
        loadedFile_ = e->file;
    }
    // Both, when both: one would hide the other.
    QStringList notes;
    if (const QString note = fishCapNote(initial); !note.isEmpty()) notes << note;
    if (!problems.isEmpty()) notes << unreadableNote(problems);
    if (!notes.isEmpty()) showMessage(notes.join('\n'), true);

    frameClock_.start();
    gestureClock_.start();
    statsTimer_.setInterval(kStatsIntervalMs);
    connect(&statsTimer_, &QTimer::timeout, this, &Editor::refreshStats);
    statsTimer_.start();
}

Editor::~Editor() {
    delete audio_;  // stops playback and input before the simulation thread goes
    audio_ = nullptr;
    host_->setFrameReady({});
    host_.reset();  // joins the simulation thread before the models go
}

void Editor::setRoutes(const std::vector<ModRoute>& routes) {
    routes_.setMatrix(ModulationMatrix{routes});
    routesBefore_ = routes;
    host_->post([m = routes_.matrix()](SimHost::Context& c) { c.routes = m; });
}

void Editor::setPaused(bool paused) {
    if (paused_ == paused) return;
    paused_ = paused;
    host_->post([paused](SimHost::Context& c) { c.paused = paused; });
    emit pausedChanged();
}

void Editor::stepOnce() {
    setPaused(true);
    host_->post([](SimHost::Context& c) { ++c.singleSteps; });
}

void Editor::resetWithNewSeed() {
    const std::uint64_t seed = QRandomGenerator::global()->generate64() >> 12;  // readable in a preset file
    objectsSent_ = host_->post([seed](SimHost::Context& c) {
        c.reset(seed);
        c.overlays.selectedId.reset();  // its id is another fish of the new school
    });
    lastStats_.seed = seed;
    updateModified();
    showMessage(tr("Reset with seed %1").arg(seed), false);
    emit schoolReplaced();
}

QString Editor::fishCapNote(const Preset& preset) const {
    if (preset.scene.fishCount <= static_cast<std::uint32_t>(kMaxFish)) return {};
    return tr("%1 asks for %2 fish; the editor runs at most %3 (render and simulate take them all).")
        .arg(QString::fromStdString(preset.name), QString::number(preset.scene.fishCount), QString::number(kMaxFish));
}

void Editor::setFishCount(int count) {
    count = std::clamp(count, 1, kMaxFish);
    if (count == fishCount_) return;
    fishCount_ = count;
    host_->post([count](SimHost::Context& c) { c.setFishCount(static_cast<std::uint32_t>(count)); });
    emit fishCountChanged();
    updateModified();
}

void Editor::setTool(int tool) {
    tool = std::clamp(tool, static_cast<int>(School), static_cast<int>(PlaceVortex));
    if (tool_ == tool) return;
    tool_ = tool;
    emit toolChanged();
}

void Editor::setWorldFollowsView(bool follow) {
    if (worldFollowsView_ == follow) return;
    worldFollowsView_ = follow;
    const QSizeF world = worldAsked();
    objectsSent_ = host_->post([world](SimHost::Context& c) {
        c.sim.setWorldSize(static_cast<float>(world.width()), static_cast<float>(world.height()));
    });
    lastStats_.worldWidth = static_cast<float>(world.width());
    lastStats_.worldHeight = static_cast<float>(world.height());
    emit worldFollowsViewChanged();
    updateModified();
}

void Editor::setPresetAsSaved(const Preset& saved) {
    loaded_ = saved;
    emit presetChanged();
    updateModified();
}

void Editor::setViewSize(QSizeF size) {
    if (size == viewSize_ || size.isEmpty()) return;
    viewSize_ = size;
    if (!worldFollowsView_) return;
    host_->post([size](SimHost::Context& c) {
        c.sim.setWorldSize(static_cast<float>(size.width()), static_cast<float>(size.height()));
    });
}

void Editor::setOverlay(bool OverlayRequest::*flag, bool on) {
    if (overlays_.*flag == on) return;
    overlays_.*flag = on;
    sendOverlays();
}
void Editor::setShowNeighbours(bool on) { setOverlay(&OverlayRequest::neighbours, on); }
void Editor::setShowForces(bool on) { setOverlay(&OverlayRequest::forces, on); }
void Editor::setShowVision(bool on) { setOverlay(&OverlayRequest::vision, on); }
void Editor::setShowGrid(bool on) { setOverlay(&OverlayRequest::grid, on); }
void Editor::setShowStats(bool on) {
    if (showStats_ == on) return;
    showStats_ = on;
    emit overlaysChanged();
}

void Editor::sendOverlays() {
    const OverlayRequest o = overlays_;
    host_->post([o](SimHost::Context& c) {
        const auto selected = c.overlays.selectedId;  // chosen on the simulation thread (clicks)
        c.overlays = o;
        c.overlays.selectedId = selected;
    });
    emit overlaysChanged();
}

void Editor::clearSelection() {
    host_->post([](SimHost::Context& c) { c.overlays.selectedId.reset(); });
}

void Editor::clearSelectionOrSayNone() {
    host_->post([this](SimHost::Context& c) {
        if (c.overlays.selectedId) c.overlays.selectedId.reset();
        else QMetaObject::invokeMethod(this, [this] { emit nothingSelected(); }, Qt::QueuedConnection);
    });
}

void Editor::selectFish(int id) {
    if (id < 0) return;
    host_->post([id](SimHost::Context& c) {
        if (static_cast<std::size_t>(id) < c.sim.fishCount()) c.overlays.selectedId = static_cast<std::uint32_t>(id);
    });
}

void Editor::selectNextFish() {
    // On the simulation thread, after the selections posted before: the
    // window's copy of the selection is a quarter second old, and quick Tabs
    // all moved on from the same fish.
    host_->post([](SimHost::Context& c) {
        const std::size_t count = c.sim.fishCount();
        if (count == 0) return;
        auto& selected = c.overlays.selectedId;
        selected = selected ? static_cast<std::uint32_t>((*selected + 1) % count) : 0u;
    });
}

void Editor::clearObjects() {
    host_->post([](SimHost::Context& c) {
        c.sim.setPredators({});
        c.sim.setObstacles({});
        std::vector<std::uint32_t> placed;
        for (const ForceField& f : c.sim.scene().fields)
            if (!c.isTransient(f.id)) placed.push_back(f.id);
        for (std::uint32_t id : placed) c.sim.removeForceField(id);
    });
}

void Editor::showMessage(const QString& text, bool error) {
    message_ = text;
    messageIsError_ = error;
    emit messageChanged();
}

void Editor::showErrorAbove(const QString& text) {
    showMessage(messageIsError_ && !message_.isEmpty() ? text + '\n' + message_ : text, true);
}

void Editor::clearMessage() { showMessage({}, false); }

void Editor::takeStats(SimStats s) {
    // A report from before the school last sent was applied (a step of
    // seconds under way) shows the old school's seed, world and objects: a
    // save or an undo then wrote them with the new school's parameters.
    if (s.commandsApplied < objectsSent_) {
        s.seed = lastStats_.seed;
        s.worldWidth = lastStats_.worldWidth;
        s.worldHeight = lastStats_.worldHeight;
        s.predators = lastStats_.predators;
        s.predatorsAsSet = lastStats_.predatorsAsSet;
        s.obstacles = lastStats_.obstacles;
        s.fields = lastStats_.fields;
    }
    lastStats_ = std::move(s);
}

void Editor::refreshStats() {
    const SimStats s = host_->stats();
    const double seconds = std::max(frameClock_.restart() / 1000.0, 1e-3);
    const double fps = frames_.exchange(0, std::memory_order_relaxed) / seconds;
    const Metrics& m = s.metrics;

    QVariantMap map;
    map["fps"] = fps;
    // Paused, the timing window holds no steps: a dash, not "step 0.00 ms".
    if (!s.paused) map["stepMs"] = s.stepMilliseconds;
    map["realTime"] = s.realTimeRatio;
    map["behind"] = !s.paused && s.realTimeRatio < 0.95;
    map["behindAdvice"] =
        stepsTooSlow(s.stepMilliseconds)
            ? tr("fewer fish or a smaller perception radius would keep up")
            : tr("its steps take %1\u00a0% of the time: drawing the view or other programs hold it back")
                  .arg(std::max(1.0, std::round(100.0 * stepShareOfRealTime(s.stepMilliseconds))));
    map["fish"] = static_cast<qulonglong>(s.fishCount);
    // As text: a number reaches QML as a double, which .arg() wrote as 1e+06 from a million steps on.
    map["step"] = QString::number(s.step);
    map["seed"] = QString::number(s.seed);
    map["world"] = QStringLiteral("%1 x %2").arg(s.worldWidth, 0, 'f', 0).arg(s.worldHeight, 0, 'f', 0);
    // Neighbours and forces are counted by steps: none before the first,
    // and, paused, none for settings edited since the last (left out, the
    // panel shows a dash, not zeros or a count of other settings; running,
    // the next step's count comes within a frame).
    if (s.step > 0 && (s.stepCountsCurrent || !s.paused)) {
        map["meanNeighbours"] = m.meanNeighbours;
        map["neighboursHealthy"] = neighboursHealthy(m.meanNeighbours);
        map["forceSeparation"] = m.forceSeparation;
        map["forceAlignment"] = m.forceAlignment;
        map["forceCohesion"] = m.forceCohesion;
    }
    map["meanSpeed"] = m.meanSpeed;
    map["polarisation"] = m.polarisation;
    map["milling"] = m.milling;
    map["nonFinite"] = static_cast<qulonglong>(m.nonFinite);
    map["morphing"] = s.morphing;
    statsMap_ = map;

    QVariantMap sel;
    if (s.selected) {
        const FishInspection& f = *s.selected;
        sel["id"] = f.id;
        sel["speed"] = f.speed;
        sel["neighbours"] = static_cast<int>(f.neighbours.size());
        sel["separation"] = length(f.separation);
        sel["alignment"] = length(f.alignment);
        sel["cohesion"] = length(f.cohesion);
        sel["alarmed"] = f.alarmed;
        sel["alarmSeconds"] = f.alarmSeconds;
        sel["perception"] = f.perceptionRadius;
    }
    selectedMap_ = sel;

    // A morph runs on the simulation thread; the sliders follow it. Stats
    // taken before an edit ended it still say it glides: not followed.
    // A glide shorter than the time between two reports ends unseen: the
    // school then runs the target's parameters (loaded_ during a morph).
    if (morph_ != Morph::None && s.morphing) {
        params_.setAll(s.params);
        morph_ = Morph::Seen;
    } else if (morph_ == Morph::Seen || (morph_ == Morph::Begun && s.params == loaded_.scene.params)) {
        params_.setAll(loaded_.scene.params);
        morph_ = Morph::None;
    }
    takeStats(s);
    noticeSlowSteps(s);
    updateModified();
    emit statsChanged();
}

// Shown once a slow spell begins and kept up to date while the message line
// still shows it; cleared when the steps are fast again, and the error it
// covered (errors stay until dismissed) shown again. Dismissed, it stays
// away until the next slow spell.
void Editor::noticeSlowSteps(const SimStats& s) {
    const double running = host_->runningStepSeconds();
    const bool slow = running >= kSlowStepSeconds || (!s.paused && s.stepMilliseconds >= 1000.0 * kSlowStepSeconds);
    if (!slow) {
        if (!slowNotice_.isEmpty() && message_ == slowNotice_) {
            if (coveredError_.isEmpty()) clearMessage();
            else showMessage(coveredError_, true);
        }
        slowNotice_.clear();
        coveredError_.clear();
        slowSpell_ = false;
        return;
    }
    if (slowSpell_ && message_ != slowNotice_) return;  // dismissed, or another message took its place
    if (!slowSpell_) coveredError_ = messageIsError_ ? message_ : QString();
    slowSpell_ = true;
    slowNotice_ = slowStepText(s, running, fishCount_, params_.params().get(ParamId::PerceptionRadius));
    showMessage(slowNotice_, true);
}

}  // namespace mirofish::editor
