#include "preset_list_model.hpp"

namespace mirofish::editor {

PresetListModel::PresetListModel(PresetLibrary library, QObject* parent)
    : QAbstractListModel(parent), library_(std::move(library)) {}

int PresetListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

const PresetLibrary::Entry* PresetListModel::entry(int row) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    return &entries_[static_cast<std::size_t>(row)];
}

QVariant PresetListModel::data(const QModelIndex& index, int role) const {
    const PresetLibrary::Entry* e = entry(index.row());
    if (!index.isValid() || !e) return {};
    switch (role) {
    case PresetIdRole: return QString::fromStdString(e->id);
    case NameRole: return QString::fromStdString(e->name);
    case DescriptionRole: return QString::fromStdString(e->description);
    case UserRole: return e->user;
    case FileRole: return QString::fromStdString(e->file.string());
    default: return {};
    }
}

QHash<int, QByteArray> PresetListModel::roleNames() const {
    return {{PresetIdRole, "presetId"}, {NameRole, "name"}, {DescriptionRole, "description"},
            {UserRole, "user"}, {FileRole, "file"}};
}

QStringList PresetListModel::refresh() {
    std::vector<std::string> problems;
    beginResetModel();
    entries_ = library_.entries(&problems);
    endResetModel();
    QStringList out;
    for (const std::string& p : problems) out << QString::fromStdString(p);
    return out;
}

int PresetListModel::rowOfFile(const std::filesystem::path& file) const {
    std::error_code ec;
    const std::filesystem::path wanted = std::filesystem::weakly_canonical(file, ec);
    if (ec) return -1;
    for (std::size_t i = 0; i < entries_.size(); ++i)
        if (std::filesystem::weakly_canonical(entries_[i].file, ec) == wanted && !ec) return static_cast<int>(i);
    return -1;
}

}  // namespace mirofish::editor
