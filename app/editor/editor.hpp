#pragma once
// The window's one controller (a QML singleton): owns the simulation thread
// (SimHost), the parameter and preset models, the undo history, the pointer
// tools and the overlay switches. It turns UI actions into queued commands
// for the simulation thread and never touches simulation arrays itself.
#include <QElapsedTimer>
#include <QObject>
#include <QPointF>
#include <QSizeF>
#include <QTimer>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>
#include <atomic>
#include <memory>
#include <optional>

#include "edit/param_history.hpp"
#include "edit/pointer_gesture.hpp"
#include "io/preset.hpp"
#include "audio_controller.hpp"
#include "param_list_model.hpp"
#include "preset_list_model.hpp"
#include "route_list_model.hpp"
#include "sim_host.hpp"

class QQmlEngine;
class QJSEngine;

namespace mirofish::editor {

// The interaction objects a pointer tool grabs.
enum class ObjectKind { None, Predator, Obstacle, Field };

// The scene with at most Editor::kMaxFish fish (the fish box's range); a
// preset with more opens with that many, and the message line says so.
Scene withinFishCap(Scene scene);

class Editor : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

    // The types spelt with their namespace, as QML's type registry names
    // them: qmllint and qmlcachegen then know what these properties hold.
    Q_PROPERTY(mirofish::editor::ParamListModel* params READ params CONSTANT)
    Q_PROPERTY(mirofish::editor::PresetListModel* presets READ presets CONSTANT)
    Q_PROPERTY(mirofish::editor::RouteListModel* routes READ routes CONSTANT)
    Q_PROPERTY(mirofish::editor::AudioController* audio READ audio CONSTANT)
    Q_PROPERTY(bool paused READ paused WRITE setPaused NOTIFY pausedChanged)
    Q_PROPERTY(int fishCount READ fishCount WRITE setFishCount NOTIFY fishCountChanged)
    Q_PROPERTY(int maxFish READ maxFish CONSTANT)
    Q_PROPERTY(int tool READ tool WRITE setTool NOTIFY toolChanged)
    Q_PROPERTY(bool worldFollowsView READ worldFollowsView WRITE setWorldFollowsView NOTIFY worldFollowsViewChanged)
    Q_PROPERTY(bool showNeighbours READ showNeighbours WRITE setShowNeighbours NOTIFY overlaysChanged)
    Q_PROPERTY(bool showForces READ showForces WRITE setShowForces NOTIFY overlaysChanged)
    Q_PROPERTY(bool showVision READ showVision WRITE setShowVision NOTIFY overlaysChanged)
    Q_PROPERTY(bool showGrid READ showGrid WRITE setShowGrid NOTIFY overlaysChanged)
    Q_PROPERTY(bool showStats READ showStats WRITE setShowStats NOTIFY overlaysChanged)
    Q_PROPERTY(QVariantMap stats READ stats NOTIFY statsChanged)
    Q_PROPERTY(QVariantMap selectedFish READ selectedFish NOTIFY statsChanged)
    Q_PROPERTY(QString presetName READ presetName NOTIFY presetChanged)
    // How many times a preset was put in place (a load, a morph, either
    // undone or redone): what a number being typed belongs to (NumberField's
    // subject). Two presets can share a name, and a redo can bring the same
    // one back.
    Q_PROPERTY(int presetOpenings READ presetOpenings NOTIFY presetChanged)
    Q_PROPERTY(QString presetDescription READ presetDescription NOTIFY presetChanged)
    Q_PROPERTY(bool presetIsUser READ presetIsUser NOTIFY presetChanged)
    // The loaded preset's row in the browser (-1: a file outside it, or deleted).
    Q_PROPERTY(int presetRow READ presetRow NOTIFY presetChanged)
    // Where it comes from, when not your own: "shipped", "from FILE", "not saved".
    Q_PROPERTY(QString presetOrigin READ presetOrigin NOTIFY presetChanged)
    Q_PROPERTY(bool modified READ modified NOTIFY modifiedChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY historyChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY historyChanged)
    Q_PROPERTY(QString undoText READ undoText NOTIFY historyChanged)
    Q_PROPERTY(QString redoText READ redoText NOTIFY historyChanged)
    Q_PROPERTY(QString message READ message NOTIFY messageChanged)
    Q_PROPERTY(bool messageIsError READ messageIsError NOTIFY messageChanged)

public:
    enum Tool { School = 0, PlacePredator, PlaceObstacle, PlaceAttract, PlaceRepel, PlaceVortex };
    Q_ENUM(Tool)
    static constexpr int kMaxFish = 200'000;

    // The instance QML gets (created by runEditor before the engine loads).
    static Editor* create(QQmlEngine*, QJSEngine*);
    static void setInstance(Editor* editor);

    // initial: the preset the window opens with (from initialFile, a user
    // preset or not); presetDirs: the shipped presets; userDir: where the
    // user's presets are saved.
    // startPaused: the school waits at step 0 (`mirofish edit --paused`).
    Editor(const Preset& initial, std::filesystem::path initialFile, bool initialIsUser,
           std::vector<std::filesystem::path> presetDirs, std::filesystem::path userDir, bool startPaused = false,
           QObject* parent = nullptr);
    ~Editor() override;
    // The preset as its file holds it, where the school was opened with
    // changes to it (edit --fish, --world): they show as not saved.
    void setPresetAsSaved(const Preset& saved);

    SimHost& host() { return *host_; }
    // The simulation's report, with the seed, world and objects last sent
    // where it does not include them yet (a step of seconds under way).
    const SimStats& currentStats() {
        takeStats(host_->stats());
        return lastStats_;
    }
    ParamListModel* params() { return &params_; }
    PresetListModel* presets() { return presets_; }
    RouteListModel* routes() { return &routes_; }
    AudioController* audio() { return audio_; }

    bool paused() const { return paused_; }
    void setPaused(bool paused);
    int fishCount() const { return fishCount_; }
    void setFishCount(int count);
    int maxFish() const { return kMaxFish; }
    int tool() const { return tool_; }
    void setTool(int tool);
    bool worldFollowsView() const { return worldFollowsView_; }
    void setWorldFollowsView(bool follow);

    bool showNeighbours() const { return overlays_.neighbours; }
    void setShowNeighbours(bool on);
    bool showForces() const { return overlays_.forces; }
    void setShowForces(bool on);
    bool showVision() const { return overlays_.vision; }
    void setShowVision(bool on);
    bool showGrid() const { return overlays_.grid; }
    void setShowGrid(bool on);
    bool showStats() const { return showStats_; }
    void setShowStats(bool on);

    QVariantMap stats() const { return statsMap_; }
    QVariantMap selectedFish() const { return selectedMap_; }
    QString presetName() const;
    int presetOpenings() const { return presetOpenings_; }
    QString presetDescription() const;
    bool presetIsUser() const { return loadedIsUser_; }
    int presetRow() const;
    QString presetOrigin() const;
    bool modified() const { return modified_; }
    bool canUndo() const { return history_.canUndo(); }
    bool canRedo() const { return history_.canRedo(); }
    QString undoText() const { return QString::fromStdString(history_.undoText()); }
    QString redoText() const { return QString::fromStdString(history_.redoText()); }
    QString message() const { return message_; }
    bool messageIsError() const { return messageIsError_; }

    // --- Actions (buttons, shortcuts) --------------------------------------
    Q_INVOKABLE void togglePause() { setPaused(!paused_); }
    Q_INVOKABLE void stepOnce();
    Q_INVOKABLE void resetWithNewSeed();
    Q_INVOKABLE void undo();
    Q_INVOKABLE void redo();
    // A key pressed in a number field or box that holds no typing: Ctrl+Z
    // undoes, Ctrl+Shift+Z and Ctrl+Y redo the editor's edits, not the text
    // input's own text (which then put an old number back in the box, to be
    // committed when it lost focus). Whether the key was one of those.
    Q_INVOKABLE bool undoRedoKey(int key, int modifiers);
    Q_INVOKABLE void resetAllParams();
    Q_INVOKABLE void clearObjects();
    Q_INVOKABLE void clearSelection();
    // Escape: lets the selected fish go or, with none selected, emits
    // nothingSelected(). Decided on the simulation thread, after the clicks
    // and Tabs posted before it: the window's copy of the selection is a
    // quarter second old.
    Q_INVOKABLE void clearSelectionOrSayNone();
    // Selects a fish by id (Tab: the next one).
    Q_INVOKABLE void selectFish(int id);
    Q_INVOKABLE void selectNextFish();
    Q_INVOKABLE void clearMessage();

    // --- Presets (rows of `presets`) ----------------------------------------
    Q_INVOKABLE bool loadPreset(int row);
    Q_INVOKABLE bool loadPresetFile(const QString& file);
    Q_INVOKABLE bool savePreset();
    // Another preset of yours already has this name: Save as would replace
    // it, and does so only when asked to (replace), after the panel asked.
    Q_INVOKABLE bool presetNameTaken(const QString& name) const;
    // The name of the preset of yours that a Save as under `name` would
    // replace, as its file holds it ("Quit Test" for "quit test"); `name`
    // itself where its file cannot be read.
    Q_INVOKABLE QString presetTakingName(const QString& name) const;
    Q_INVOKABLE bool savePresetAs(const QString& name, bool replace = false);
    Q_INVOKABLE bool renamePreset(int row, const QString& name);
    Q_INVOKABLE bool deletePreset(int row);
    Q_INVOKABLE bool morphToPreset(int row, double seconds);
    // Morphs to the preset `step` rows after the open one in the list (before
    // it, for a negative step), round from the last to the first: a
    // performer's next look without the mouse (PgDown, PgUp). With the open
    // preset not in the list, the first (or the last).
    Q_INVOKABLE bool morphToNeighbour(int step, double seconds);

    // --- The view -------------------------------------------------------------
    // Positions in world units; viewPosition in view pixels (gesture speeds);
    // viewScale: view pixels per world unit, so that a click reaches as far
    // on the screen however large the world is shown.
    void pointerPressed(QPointF world, QPointF viewPosition, Qt::MouseButton button, double viewScale = 1.0);
    void pointerMoved(QPointF world, QPointF viewPosition);
    void pointerReleased(QPointF world, QPointF viewPosition, double viewScale = 1.0);
    // The view lost the pointer in the middle of a press (another window
    // took the focus): the drag or the pull ends where it is, selecting nothing.
    void pointerCancelled();
    // The view's size in pixels (the world follows it when worldFollowsView).
    void setViewSize(QSizeF size);
    // The view counts its frames; the stats line shows the rate.
    void countFrame() { frames_.fetch_add(1, std::memory_order_relaxed); }
    // The message line under the view (errors stay until dismissed).
    void showMessage(const QString& text, bool error);
    // An error above the error the message line holds already (the notes the
    // editor opened with), so that neither hides the other.
    void showErrorAbove(const QString& text);
    // What "save" would write now (the export renders it too).
    Preset currentPreset();
    // The parameters of the preset as it stands: the sliders', or a running
    // morph's target while they glide.
    Params presetParams() const;
    // Its fish count: the editor's, or the preset's own above the editor's
    // cap while the count was not changed.
    std::uint32_t presetFishCount() const;

signals:
    void frameReady();  // a new snapshot is waiting (queued from the simulation thread)
    void pausedChanged();
    void fishCountChanged();
    void toolChanged();
    void worldFollowsViewChanged();
    void overlaysChanged();
    void statsChanged();
    void presetChanged();
    // The preset browser selects (not loads) this row: a preset just renamed.
    void presetSelected(int row);
    // A new school replaced the one running (a load, its undo, a reset with
    // a new seed): the view's trails of the old one go.
    void schoolReplaced();
    void nothingSelected();
    void modifiedChanged();
    void historyChanged();
    void messageChanged();

private:
    // The preset open now, as a history entry keeps it.
    OpenPreset openPreset();
    // Loads `preset` (loadedFile_ and loadedIsUser_ already say where it is
    // from), recording `before` for an undo.
    void applyPreset(const Preset& preset, const OpenPreset& before);
    // Runs `running` from its seed, compared with `loaded` for "modified".
    void run(const Preset& running, const Preset& loaded);
    // Empty, or the message that the preset has more fish than the editor runs.
    QString fishCapNote(const Preset& preset) const;
    // That message as an error where there is one, else `done`.
    void reportApplied(const Preset& preset, const QString& done);
    void onParamEdited(ParamId id, float before, float after);
    void applyParamsFromHistory(const Params& params);
    void setOverlay(bool OverlayRequest::*flag, bool on);
    void sendOverlays();
    void refreshStats();
    void takeStats(SimStats s);
    // The message line's word on steps that take half a second or more.
    void noticeSlowSteps(const SimStats& s);
    void updateModified();
    bool reportPresetError(const std::exception& e);
    // The name in the file of yours that Save as `name` writes over, if any
    // (empty where there is none, or it cannot be read).
    std::string nameInFileSavedAs(const std::string& name) const;
    // A preset of the list, in `file`, that failed to load, morph to, rename
    // or delete: when the file changed since the list was read (it broke, or
    // is gone), the list is read again, to show what is there now. The error
    // is reported.
    bool reportListedPresetError(const std::exception& e, const std::filesystem::path& file);
    // After a preset was saved, renamed or deleted: the list re-read, and
    // `done` in the message line, with the files that could not be read, if
    // any (a file broken while the editor ran), as an error that stays.
    void refreshPresetsAndSay(const QString& done);
    // The message line's note on presets that could not be read.
    static QString unreadableNote(const QStringList& problems);
    void endObjectDrag();
    // The world the simulation runs, as this window last asked for it: the
    // view's size while the world follows it (W), else the preset's own.
    QSizeF worldAsked() const { return worldFollowsView_ && !viewSize_.isEmpty() ? viewSize_ : ownWorld_; }
    void objectToolPress(QPointF world, Qt::MouseButton button, double viewScale);
    // Ends the school tool's pull; a click at `clickedAt` selects the fish under it.
    void endPointerField(std::optional<QPointF> clickedAt, double viewScale);
    // Shows and sends these routes (a preset, an undo step).
    void setRoutes(const std::vector<ModRoute>& routes);
    void applyHistoryStep(const HistoryStep& step);

    ParamListModel params_;
    PresetListModel* presets_;
    RouteListModel routes_;
    std::vector<ModRoute> routesBefore_;  // the table as last recorded: an edit's "before"
    ParamHistory history_;
    // Written by the audio controller, read by the simulation thread; made before both.
    std::shared_ptr<AudioFeed> audioFeed_;
    std::unique_ptr<SimHost> host_;
    AudioController* audio_;
    std::atomic<bool> frameQueued_{false};
    std::atomic<int> frames_{0};

    bool paused_ = false;
    int fishCount_ = 0;
    int tool_ = School;
    bool worldFollowsView_ = false;
    // The world of the preset running (with --world, the size given), which
    // W off gives back: not the file's, which dropped a --world size.
    QSizeF ownWorld_;
    QSizeF viewSize_;
    OverlayRequest overlays_;
    bool showStats_ = true;

    Preset loaded_;
    bool loadedIsUser_ = false;
    int presetOpenings_ = 0;
    std::filesystem::path loadedFile_;
    bool modified_ = false;
    // A morph glides the parameters on the simulation thread: Begun until
    // the stats show it gliding, then Seen (the sliders follow it) until it
    // ends; an edit, load or undo ends it. While it runs the preset is its
    // target: what saving writes and "modified" compares (presetParams).
    enum class Morph { None, Begun, Seen };
    Morph morph_ = Morph::None;
    SimStats lastStats_;
    // The number of the last command that replaced the school's seed, world
    // or objects (SimHost::post): until a report includes it, lastStats_
    // keeps those sent (takeStats).
    std::uint64_t objectsSent_ = 0;
    QVariantMap statsMap_, selectedMap_;
    QTimer statsTimer_;
    QElapsedTimer frameClock_;
    QString message_;
    bool messageIsError_ = false;
    QString slowNotice_;      // the slow-step message as last shown
    bool slowSpell_ = false;  // steps have been slow since slowNotice_ was first shown
    QString coveredError_;    // the error the slow-step message took the place of

    // The pointer: the school tool's live field and gesture, or a dragged object.
    PointerGesture gesture_;
    QElapsedTimer gestureClock_;
    bool pointerFieldActive_ = false;
    ObjectKind dragged_ = ObjectKind::None;
    std::uint32_t draggedFieldId_ = 0;  // a field's id
    Vec2 grabOffset_{};                 // from the pointer to the object held, world px
    bool dragWraps_ = false;            // the world wrapped at the press: the object crosses the seam
};

}  // namespace mirofish::editor
