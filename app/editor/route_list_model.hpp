#pragma once
// The modulation matrix as an editable table: one row per route (source,
// band, target parameter, min, max, curve, amount, invert) plus what the
// route does right now (from the simulation thread's report). Part of the
// preset: an edit emits edited() and the editor sends the routes on to the
// simulation thread, records the undo step and marks the preset modified.
#include <QAbstractListModel>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include "audio/modulation.hpp"

namespace mirofish::editor {

class RouteListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by Editor")
    // The choices the table's combo boxes offer (keys as in presets).
    Q_PROPERTY(QStringList sourceKeys READ sourceKeys CONSTANT)
    Q_PROPERTY(QStringList curveKeys READ curveKeys CONSTANT)
    Q_PROPERTY(QStringList targetKeys READ targetKeys CONSTANT)
    Q_PROPERTY(QStringList targetLabels READ targetLabels CONSTANT)

public:
    enum Role {
        SourceRole = Qt::UserRole + 1,  // "low", "mid", ... (modSourceKey)
        BandRole,
        TargetRole,        // registry key
        TargetIndexRole,   // index into targetKeys
        TargetLabelRole,
        UnitRole,
        MinRole,
        MaxRole,
        RangeMinRole,      // the target's registry range
        RangeMaxRole,
        CurveRole,         // "log", "linear", "exp"
        AmountRole,
        InvertRole,
        // Live: what the route does in the last simulation step.
        SourceLevelRole,   // 0..1
        PositionRole,      // 0..1 between min and max
        OffsetRole,        // amount * (value - base), in the target's units
        LiveTextRole,      // e.g. "+0.84"
    };

    explicit RouteListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    QStringList sourceKeys() const;
    QStringList curveKeys() const;
    QStringList targetKeys() const;
    QStringList targetLabels() const;

    // A new route: the low band on separationWeight over its default's
    // neighbourhood (a starting point to edit).
    Q_INVOKABLE void addRoute();
    Q_INVOKABLE void removeRoute(int row);
    // field: "source", "band", "target", "min", "max", "curve", "amount",
    // "invert". Numbers are clamped to what the route allows; a new target
    // gets a range around its current default. False (and nothing changes)
    // for an unknown field or key.
    Q_INVOKABLE bool setField(int row, const QString& field, const QVariant& value);
    // The end of an amount slider drag: the next edit starts a new undo step.
    Q_INVOKABLE void endGesture() { emit gestureEnded(); }

    const ModulationMatrix& matrix() const { return matrix_; }
    // Replaces all routes (a preset) without emitting edited().
    void setMatrix(const ModulationMatrix& matrix);
    // What each route does now (one entry per route, in order).
    void setLive(const std::vector<RouteValue>& values);
    // Nothing drives: every row's source, position and offset at rest.
    void clearLive();

signals:
    // label: the undo step's name ("Add audio route", "Audio route 1 amount", ...);
    // dragging: a slider's move, merged with the next of the same label until
    // gestureEnded().
    void edited(const QString& label, bool dragging);
    void gestureEnded();

private:
    void changed(int row);
    // Every row's live columns changed.
    void liveChanged();

    ModulationMatrix matrix_;
    std::vector<RouteValue> live_;
};

}  // namespace mirofish::editor
