#pragma once
// Every registry parameter as a list the side panel generates its rows from
// (grouped by the registry's group). Holds the window's copy of the
// parameters; an edit emits edited() and the editor sends it on to the
// simulation thread and the undo history.
#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

#include "params/params.hpp"

namespace mirofish::editor {

class ParamListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by Editor")

public:
    enum Role {
        KeyRole = Qt::UserRole + 1,
        LabelRole,
        UnitRole,
        GroupRole,
        MinimumRole,
        MaximumRole,
        LogScaleRole,
        ChoicesRole,
        ValueRole,
        DefaultValueRole,
        PositionRole,
        DescriptionRole,
        RangeTextRole,
        IsDefaultRole,
        DecimalsRole,
    };

    explicit ParamListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // From the panel. Values outside the registry's range are clamped to it.
    Q_INVOKABLE void setValue(int row, double value);
    // t in [0, 1] on the slider, on the registry's scale (log sliders).
    Q_INVOKABLE void setPosition(int row, double t);
    Q_INVOKABLE void resetToDefault(int row);
    // The end of a slider drag: the next edit starts a new undo step.
    Q_INVOKABLE void endGesture() { emit gestureEnded(); }
    Q_INVOKABLE int rowOf(const QString& key) const;

    const Params& params() const { return params_; }
    // Replaces every value (undo, a preset, a morph's progress) without emitting edited().
    void setAll(const Params& params);

signals:
    void edited(mirofish::ParamId id, float before, float after);
    void gestureEnded();

private:
    void apply(int row, float value);

    Params params_;
};

}  // namespace mirofish::editor
