// The file dialogs' filters for sound. Qt's own (non-native) file dialog
// matches them case-sensitively: each extension comes in both cases, or
// Track01.MP3 and a camera's IMG_0001.MOV were not listed.
pragma Singleton
import QtQuick

QtObject {
    function globs(extensions) {
        return extensions.map(e => "*." + e + " *." + e.toUpperCase()).join(" ")
    }
    // Videos too: their first audio stream is read, as `mirofish analyze` does.
    readonly property var nameFilters: [
        qsTr("Audio files (%1)").arg(globs(["wav", "flac", "mp3", "ogg", "opus", "m4a", "aac", "aif", "aiff", "wma"])),
        qsTr("Videos (%1)").arg(globs(["mp4", "mov", "mkv", "webm"])),
        qsTr("All files (*)")]
}
