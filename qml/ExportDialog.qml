// Export: size, frame rate, length, warm-up, format and output, and the
// audio that drives the render. Runs in the background (ExportController);
// the window stays usable, this shows progress and can cancel.
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import MiroFish

Dialog {
    id: dialog
    required property ExportController exporter
    title: qsTr("Export")
    modal: false
    // Not Popup.CloseOnEscape: Qt then blocks every window shortcut while
    // the dialog is open (QQuickShortcutContext treats such a popup as
    // modal). The window's Escape closes it instead.
    closePolicy: Popup.NoAutoClose
    // The keyboard goes to the dialog, whose fields Tab then walks through:
    // opened with Ctrl+E, it left the keys on the view, where Tab picked
    // fish under the dialog and nothing could start the export. While an
    // export runs the fields are disabled: then to Cancel export.
    function takeKeyboard() {
        if (visible) (exporter.running ? cancelButton : sizeBox).forceActiveFocus(Qt.TabFocusReason)
    }
    readonly property bool running: exporter.running
    onRunningChanged: takeKeyboard()
    onOpened: takeKeyboard()
    width: 560
    padding: 16

    readonly property var sizes: [[1280, 720], [1920, 1080], [3840, 2160], [1080, 1920], [2048, 2048]]
    readonly property var rates: [24, 25, 30, 60]
    readonly property var extensions: ["", "", ".mp4", ".mov", ".mov"]
    readonly property bool custom: sizeBox.currentIndex === sizes.length
    readonly property bool video: format.currentIndex >= 2
    readonly property int fps: rates[rateBox.currentIndex]

    // The output path with the extension of the chosen format (a folder for
    // PNG). A video into a folder ("Videos/") gets a name there.
    // A name that ends in the format's extension is kept as typed, in any
    // case (CLIP.MP4, a camera's, to replace: made CLIP.mp4, a second file
    // was written beside it), and so is one named like a kind the export
    // refuses (clip.avi: made clip.avi.mp4, it was not reported).
    function outputFor(path, index) {
        const extension = extensions[index]
        if (extension !== "" && (path.toLowerCase().endsWith(extension) || exporter.namesAnotherKind(path))) return path
        let bare = path.replace(/\.(mp4|mov)$/i, "")
        if (extensions[index] !== "" && (bare === "" || bare.endsWith("/"))) bare += "mirofish-export"
        return bare + extensions[index]
    }
    // The format that the output's name asks for: a name ending in .mp4 or
    // .mov is that video, whatever the box says (as for `mirofish render`);
    // any other name keeps the box's format.
    function formatFor(path, index) {
        if (/\.mp4$/i.test(path)) return 2
        // A MOV keeps the alpha that the box asked for (PNG with alpha: MOV with alpha).
        if (/\.mov$/i.test(path)) return index >= 3 ? index : index === 1 ? 4 : 3
        return index
    }
    // The box and the name made to agree: the name's video extension picks
    // the format, and a video format gives a bare name its extension.
    function agree() {
        const index = formatFor(output.text, format.currentIndex)
        format.currentIndex = index
        output.text = outputFor(output.text, index)
    }
    function frames() {
        if (unit.currentIndex === 2) return 0  // the audio file's length
        return unit.currentIndex === 0 ? Math.max(1, Math.round(length.value * fps)) : length.value
    }
    // A video export into a file that is already there asks first (the old
    // file stays until the new one is complete, and stays if it is cancelled).
    function requestExport() {
        agree()
        // Settings no export takes are said at once: asked first whether to
        // replace the video, the user agreed to nothing.
        if (exporter.refusesSettings(options()))
            return
        const existing = exporter.videoToReplace(output.text)
        if (existing !== "") {
            confirmReplaceVideo.file = existing
            confirmReplaceVideo.open()
            return
        }
        startExport()
    }
    function startExport() {
        exporter.start(options())
    }
    function options() {
        return {
            width: custom ? customWidth.value : sizes[sizeBox.currentIndex][0],
            height: custom ? customHeight.value : sizes[sizeBox.currentIndex][1],
            fitWorld: fitWorld.checked,
            fps: fps,
            frames: frames(),
            warmup: warmup.value,
            output: output.text,
            alpha: format.currentIndex === 1 || format.currentIndex === 4,
            crf: quality.crf,
            audio: audio.text
        }
    }

    contentItem: ColumnLayout {
        spacing: 10

        GridLayout {
            columns: 2
            columnSpacing: 12
            rowSpacing: 6
            enabled: !dialog.exporter.running

            Label { text: qsTr("Size") }
            RowLayout {
                ComboBox {
                    id: sizeBox
                    objectName: "exportSize"
                    model: ["1280 × 720", "1920 × 1080", "3840 × 2160", "1080 × 1920", "2048 × 2048", qsTr("Custom")]
                    currentIndex: 1
                    Layout.preferredWidth: 150
                }
                CountBox { id: customWidth; undoesEdits: false; visible: dialog.custom; from: 16; to: 16384; value: 1920 }
                Label { visible: dialog.custom; text: "×" }
                CountBox { id: customHeight; undoesEdits: false; visible: dialog.custom; from: 16; to: 16384; value: 1080 }
            }

            Item { width: 1; height: 1 }
            FramedCheckBox {
                id: fitWorld
                objectName: "exportFitWorld"
                text: qsTr("The world takes the frame's shape (same area)")
                checked: true
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Off: a world of another shape is letterboxed in the frame")
            }

            Label { text: qsTr("Frame rate") }
            ComboBox {
                id: rateBox
                objectName: "exportRate"
                model: dialog.rates.map(r => r + " fps")
                currentIndex: 2
                Layout.preferredWidth: 150
            }

            Label { text: qsTr("Length") }
            RowLayout {
                CountBox {
                    id: length
                    pointGroups: unit.currentIndex === 1  // frames; in seconds "1.500" is 1.5 s
                    undoesEdits: false
                    objectName: "exportLength"
                    enabled: unit.currentIndex !== 2
                    from: 1
                    to: 100000
                    value: 10
                }
                ComboBox {
                    id: unit
                    objectName: "exportUnit"
                    model: [qsTr("seconds"), qsTr("frames"), qsTr("the audio file's length")]
                    Layout.preferredWidth: 200
                }
            }

            Label { text: qsTr("Warm-up (s)") }
            CountBox {
                id: warmup
                objectName: "exportWarmup"
                pointGroups: false  // seconds: "1.500" is 1.5 s
                undoesEdits: false
                from: 0
                to: 3600
                value: 0
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Simulated (and painted, with trails) before the first frame")
            }

            Label { text: qsTr("Format") }
            ComboBox {
                id: format
                objectName: "exportFormat"
                model: [qsTr("PNG sequence"), qsTr("PNG sequence with alpha"), qsTr("MP4 (H.264)"),
                        qsTr("ProRes 4444 MOV"), qsTr("ProRes 4444 MOV with alpha")]
                Layout.fillWidth: true
                onActivated: index => output.text = dialog.outputFor(output.text, index)
            }

            Label { visible: format.currentIndex === 2; text: qsTr("Quality") }
            RowLayout {
                visible: format.currentIndex === 2
                // Better to the right: the slider's value rises that way (from
                // 35 to 0, Right raised the CRF and moved the handle left).
                Slider {
                    id: quality
                    objectName: "exportQuality"
                    // CRF 1 at the right: 0, lossless, makes MP4s few players open (kBestCrf).
                    readonly property int crf: 35 - Math.round(value)
                    from: 0
                    to: 34
                    value: 35 - 18
                    stepSize: 1
                    Layout.fillWidth: true
                }
                Label { text: qsTr("CRF %1").arg(quality.crf) }
            }

            Label { text: format.currentIndex < 2 ? qsTr("Folder") : qsTr("File") }
            RowLayout {
                TextField {
                    id: output
                    objectName: "exportOutput"
                    text: dialog.exporter.defaultOutput
                    Layout.fillWidth: true
                    selectByMouse: true
                    onEditingFinished: dialog.agree()
                }
                Button {
                    text: qsTr("Browse…")
                    onClicked: dialog.video ? videoDialog.open() : folderDialog.open()
                }
            }

            Label { text: qsTr("Audio") }
            RowLayout {
                TextField {
                    id: audio
                    objectName: "exportAudio"
                    // The Audio tab's file, until another is chosen here.
                    text: Editor.audio.filePath
                    placeholderText: qsTr("none (drives the routes and is muxed in)")
                    Layout.fillWidth: true
                    selectByMouse: true
                    // Typed or emptied here is chosen here too: typing keeps a
                    // binding, and the Audio tab's next file replaced the text.
                    onTextEdited: text = text
                }
                Button { text: qsTr("Browse…"); onClicked: audioDialog.open() }
            }
        }

        Label {
            visible: dialog.video && !dialog.exporter.ffmpegFound
            text: qsTr("MP4 and MOV need the ffmpeg program, which was not found (install the package ffmpeg); PNG export works without it.")
            color: "#f0a050"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        ProgressBar {
            objectName: "exportProgress"
            visible: dialog.exporter.running
            from: 0
            to: dialog.exporter.warmingUp ? Math.max(0.001, dialog.exporter.warmupSeconds)
                                          : Math.max(1, dialog.exporter.framesTotal)
            value: dialog.exporter.warmingUp ? dialog.exporter.warmedUpSeconds : dialog.exporter.framesDone
            Layout.fillWidth: true
        }
        Label {
            objectName: "exportProgressText"
            visible: dialog.exporter.running
            text: dialog.exporter.readingAudio ? qsTr("Reading the audio file…")
                  : dialog.exporter.warmingUp ? qsTr("Warming up: %1 of %2 s simulated before the first frame…")
                                                    .arg(dialog.exporter.warmedUpSeconds.toFixed(1))
                                                    .arg(dialog.exporter.warmupSeconds.toFixed(1))
                  : dialog.exporter.finishing ? (dialog.video ? qsTr("Finishing the video…") : qsTr("Writing the last frames…"))
                  : dialog.exporter.framesPerSecond > 0
                    ? qsTr("%1 / %2 frames · %3 frames/s · %4 s left")
                          .arg(dialog.exporter.framesDone).arg(dialog.exporter.framesTotal)
                          .arg(dialog.exporter.framesPerSecond.toFixed(1)).arg(Math.ceil(dialog.exporter.secondsLeft))
                    // No speed yet: the rate counts from the first written frame.
                    : qsTr("%1 / %2 frames").arg(dialog.exporter.framesDone).arg(dialog.exporter.framesTotal)
        }
        Label {
            objectName: "exportStatus"
            visible: !dialog.exporter.running && text !== ""
            text: dialog.exporter.status
            color: dialog.exporter.failed ? "#ff8a7a" : "#9fd39f"
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        RowLayout {
            Item { Layout.fillWidth: true }
            Button {
                objectName: "exportStart"
                text: qsTr("Export")
                enabled: !dialog.exporter.running
                highlighted: true
                onClicked: dialog.requestExport()
                Keys.onReturnPressed: dialog.requestExport()
                Keys.onEnterPressed: dialog.requestExport()
            }
            Button {
                id: cancelButton
                objectName: "exportCancel"
                text: qsTr("Cancel export")
                enabled: dialog.exporter.running
                onClicked: dialog.exporter.cancel()
            }
            Button { text: qsTr("Close"); onClicked: dialog.close() }
        }
    }

    CarefulQuestion {
        id: confirmReplaceVideo
        objectName: "confirmReplaceVideo"
        property string file
        title: qsTr("Replace video")
        width: 420
        Label {
            width: parent.width
            wrapMode: Text.Wrap
            textFormat: Text.PlainText  // a path, as it is
            text: qsTr("%1 is already there. Replace it with this export? The old file is kept until the new one is complete, and kept if you cancel the export.").arg(confirmReplaceVideo.file)
        }
        onAccepted: dialog.startExport()
    }
    FolderDialog {
        id: folderDialog
        objectName: "exportFolderDialog"
        title: qsTr("The folder for the PNG frames")
        currentFolder: dialog.exporter.folderAround(output.text)
        onAccepted: output.text = selectedFolder
    }
    FileDialog {
        id: videoDialog
        objectName: "exportVideoDialog"
        title: qsTr("The video file")
        currentFolder: dialog.exporter.folderAround(output.text)
        fileMode: FileDialog.SaveFile
        nameFilters: format.currentIndex === 2 ? ["MP4 (*.mp4 *.MP4)"] : ["QuickTime (*.mov *.MOV)"]
        // The name chosen here decides, as a typed one does.
        onAccepted: {
            output.text = selectedFile.toString()
            dialog.agree()
        }
    }
    FileDialog {
        id: audioDialog
        title: qsTr("The audio file that drives the export")
        fileMode: FileDialog.OpenFile
        objectName: "exportAudioDialog"
        nameFilters: AudioFileFilters.nameFilters
        onAccepted: audio.text = selectedFile
    }
}
