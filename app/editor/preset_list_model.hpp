#pragma once
#include <filesystem>
// The preset browser's list: shipped and user presets with their
// descriptions (core/edit/preset_library does the file work).
#include <QAbstractListModel>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

#include "edit/preset_library.hpp"

namespace mirofish::editor {

class PresetListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("owned by Editor")

public:
    enum Role { PresetIdRole = Qt::UserRole + 1, NameRole, DescriptionRole, UserRole, FileRole };

    explicit PresetListModel(PresetLibrary library, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Re-reads the folders; returns the files that could not be read.
    QStringList refresh();
    // The row of the entry read from this file (however the path is
    // written: relative, through a link), or -1.
    int rowOfFile(const std::filesystem::path& file) const;

    PresetLibrary& library() { return library_; }
    const PresetLibrary::Entry* entry(int row) const;

private:
    PresetLibrary library_;
    std::vector<PresetLibrary::Entry> entries_;
};

}  // namespace mirofish::editor
