#include "param_list_model.hpp"

#include <algorithm>
#include <cmath>

#include <QStringList>

namespace mirofish::editor {

namespace {
const ParamDef& defAt(int row) { return paramRegistry()[static_cast<std::size_t>(row)]; }

QString toQString(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// Digits after the point the numeric field shows: about a thousandth of the
// range on a linear slider, three significant digits on a log slider, and
// on a log-from-0 slider down to its knee (a thousandth of the range; its
// first stretch showed 0.3 px as "0").
int decimalsFor(const ParamDef& d, float value) {
    if (d.isChoice()) return 0;
    const double scale = d.scale == ParamScale::Log           ? 10.0 * std::abs(value)
                         : d.scale == ParamScale::LogFromZero ? std::max(10.0 * std::abs(value), (d.max - d.min) / 100.0)
                                                              : d.max - d.min;
    return std::clamp(static_cast<int>(std::ceil(3.0 - std::log10(std::max(scale, 1e-6)))), 0, 4);
}
}  // namespace

ParamListModel::ParamListModel(QObject* parent) : QAbstractListModel(parent) {}

int ParamListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(kParamCount);
}

QVariant ParamListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() < 0 || index.row() >= rowCount()) return {};
    const ParamDef& d = defAt(index.row());
    const float value = params_.get(d.id);
    switch (role) {
    case KeyRole: return toQString(d.key);
    case LabelRole: return toQString(d.label);
    case UnitRole: return toQString(d.unit);
    case GroupRole: return toQString(d.group);
    case MinimumRole: return d.min;
    case MaximumRole: return d.max;
    case LogScaleRole: return d.scale != ParamScale::Linear;
    case ChoicesRole: {
        QStringList labels;
        for (std::string_view c : d.choiceLabels()) labels << toQString(c);
        return labels;
    }
    case ValueRole: return static_cast<double>(value);
    case DefaultValueRole: return d.defaultValue;
    case PositionRole: return toNormalized(d, value);
    case DescriptionRole: return toQString(d.description);
    case RangeTextRole: return QString::fromStdString(d.rangeText());
    case IsDefaultRole: return value == static_cast<float>(d.defaultValue);
    case DecimalsRole: return decimalsFor(d, value);
    default: return {};
    }
}

QHash<int, QByteArray> ParamListModel::roleNames() const {
    return {{KeyRole, "key"},
            {LabelRole, "label"},
            {UnitRole, "unit"},
            {GroupRole, "group"},
            {MinimumRole, "minimum"},
            {MaximumRole, "maximum"},
            {LogScaleRole, "logScale"},
            {ChoicesRole, "choices"},
            {ValueRole, "value"},
            {DefaultValueRole, "defaultValue"},
            {PositionRole, "position"},
            {DescriptionRole, "description"},
            {RangeTextRole, "rangeText"},
            {IsDefaultRole, "isDefault"},
            {DecimalsRole, "decimals"}};
}

int ParamListModel::rowOf(const QString& key) const {
    const auto id = findParam(key.toStdString());
    return id ? static_cast<int>(*id) : -1;
}

void ParamListModel::setValue(int row, double value) {
    if (row < 0 || row >= rowCount() || !std::isfinite(value)) return;
    const ParamDef& d = defAt(row);
    double v = std::clamp(value, d.min, d.max);
    if (d.isChoice()) v = std::round(v);
    apply(row, static_cast<float>(v));
}

void ParamListModel::setPosition(int row, double t) {
    if (row < 0 || row >= rowCount() || !std::isfinite(t)) return;
    setValue(row, fromNormalized(defAt(row), std::clamp(t, 0.0, 1.0)));
}

void ParamListModel::resetToDefault(int row) {
    if (row < 0 || row >= rowCount()) return;
    emit gestureEnded();
    apply(row, static_cast<float>(defAt(row).defaultValue));
    emit gestureEnded();
}

void ParamListModel::apply(int row, float value) {
    const ParamDef& d = defAt(row);
    const float before = params_.get(d.id);
    if (before == value) return;
    params_.set(d.id, value);
    const QModelIndex i = index(row);
    emit dataChanged(i, i, {ValueRole, PositionRole, IsDefaultRole, DecimalsRole});
    emit edited(d.id, before, value);
}

void ParamListModel::setAll(const Params& params) {
    for (int row = 0; row < rowCount(); ++row) {
        const ParamId id = defAt(row).id;
        if (params_.get(id) == params.get(id)) continue;
        params_.set(id, params.get(id));
        const QModelIndex i = index(row);
        emit dataChanged(i, i, {ValueRole, PositionRole, IsDefaultRole, DecimalsRole});
    }
}

}  // namespace mirofish::editor
