// The audio panel: the source (a file or an input device), the file's
// transport, the latency offset, level meters with a beat light and the
// tempo, and the modulation matrix with each route's live effect.
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import MiroFish

ScrollView {
    id: panel
    readonly property var audio: Editor.audio
    contentWidth: availableWidth
    clip: true

    function openFileDialog() { fileDialog.open() }
    // A route added goes last, below the fold at 1280x720: it looked as if
    // Add route had done nothing. For a moment after, each step of its
    // laying out scrolls the panel to its end.
    function showNewRoute() {
        revealingNewRoute.restart()
        Qt.callLater(scrollToEnd)
    }
    function scrollToEnd() {
        const flick = panel.contentItem
        flick.contentY = Math.max(0, flick.contentHeight - flick.height)
    }
    Timer { id: revealingNewRoute; interval: 500 }
    Connections {
        target: panel.contentItem
        function onContentHeightChanged() { if (revealingNewRoute.running) panel.scrollToEnd() }
    }
    function timeText(s) {
        var m = Math.floor(s / 60)
        var sec = Math.floor(s % 60)
        return m + ":" + (sec < 10 ? "0" : "") + sec
    }

    FileDialog {
        id: fileDialog
        objectName: "audioFileDialog"
        title: qsTr("Open an audio file")
        nameFilters: AudioFileFilters.nameFilters
        onAccepted: panel.audio.openFile(selectedFile)
    }

    ColumnLayout {
        width: panel.availableWidth
        spacing: 6

        // --- Source --------------------------------------------------------
        Label { text: qsTr("Source"); font.bold: true; Layout.leftMargin: 8; Layout.topMargin: 8 }
        RowLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Button {
                objectName: "audioOpenFile"
                text: qsTr("Open file…")
                onClicked: fileDialog.open()
                ToolTip.visible: hovered
                ToolTip.text: qsTr("wav, flac, mp3, ogg, opus, m4a, aiff… or a video's sound (Ctrl+O)")
            }
            ComboBox {
                id: inputBox
                objectName: "audioInput"
                Layout.fillWidth: true
                enabled: panel.audio.inputDevices.length > 0
                model: panel.audio.inputDevices
                currentIndex: panel.audio.inputDevice
                displayText: currentIndex >= 0 ? currentText
                             : (panel.audio.inputDevices.length > 0 ? qsTr("Live input…") : qsTr("No input device"))
                onActivated: function(i) { panel.audio.useInput(i) }
            }
            ToolButton {
                objectName: "audioClose"
                text: "✕"
                // An input still opening (a slow device) can be stopped too.
                enabled: panel.audio.source !== AudioController.NoSource || panel.audio.loading
                         || panel.audio.inputDevice >= 0
                onClicked: panel.audio.closeSource()
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Stop the audio source; the school runs on its own parameters")
            }
        }
        Label {
            objectName: "audioStatus"
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            wrapMode: Text.Wrap
            textFormat: Text.PlainText  // it may name a file, whose name may hold "<"
            text: panel.audio.status
        }
        Label {
            objectName: "audioDeviceNote"
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            visible: text !== ""
            wrapMode: Text.Wrap
            color: "#f0b35a"
            font.pixelSize: 11
            text: panel.audio.deviceNote
        }
        ProgressBar {
            objectName: "audioLoadProgress"
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            visible: panel.audio.loading
            value: panel.audio.loadProgress
        }

        // --- Transport (files) ---------------------------------------------
        ColumnLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            visible: panel.audio.source === AudioController.FileSource
            spacing: 2
            // Plain text: a name holding "<b>" was drawn bold, its tags gone.
            Label { text: panel.audio.fileName; textFormat: Text.PlainText; font.bold: true; elide: Text.ElideMiddle; Layout.fillWidth: true }
            RowLayout {
                Layout.fillWidth: true
                Button {
                    objectName: "audioPlay"
                    text: panel.audio.playing ? qsTr("Pause") : qsTr("Play")
                    onClicked: panel.audio.togglePlay()
                    ToolTip.visible: hovered
                    ToolTip.text: qsTr("M; [ and ] seek 5 s")
                }
                Label {
                    objectName: "audioTime"
                    // The length rounded, as the status says it (2.97 s: "3.0 s" and 0:03, not 0:02).
                    // At the end the position reads as the length: a 2.6 s track
                    // ended on 0:02 / 0:03, as if a second were left.
                    text: panel.timeText(panel.audio.position >= panel.audio.duration ? Math.round(panel.audio.duration)
                                                                                      : panel.audio.position)
                          + " / " + panel.timeText(Math.round(panel.audio.duration))
                    font.family: "monospace"
                }
                Item { Layout.fillWidth: true }
                FramedCheckBox {
                    text: qsTr("Loop")
                    checked: panel.audio.loop
                    onToggled: panel.audio.loop = checked
                }
            }
            Slider {
                objectName: "audioSeek"
                Layout.fillWidth: true
                from: 0
                to: Math.max(panel.audio.duration, 0.001)
                value: pressed ? value : panel.audio.position
                onMoved: panel.audio.seek(value)
            }
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Label { text: qsTr("Latency offset"); Layout.fillWidth: true }
            UnitSpinBox {
                objectName: "audioLatency"
                unit: "ms"
                from: -panel.audio.maxLatencyMs
                to: panel.audio.maxLatencyMs
                stepSize: 5
                value: panel.audio.latencyMs
                onValueModified: panel.audio.latencyMs = value
                typingIsEdit: false
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Delay the visuals by this much to line them up with what the audience hears (negative: ahead; files only)")
            }
        }

        // --- Meters ----------------------------------------------------------
        Label { text: qsTr("Levels"); font.bold: true; Layout.leftMargin: 8; Layout.topMargin: 4 }
        RowLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            spacing: 4
            LevelMeter { objectName: "meterLow"; label: qsTr("low"); value: panel.audio.named[0]; colour: "#e06c5a" }
            LevelMeter { objectName: "meterMid"; label: qsTr("mid"); value: panel.audio.named[1]; colour: "#7ccf6b" }
            LevelMeter { objectName: "meterHigh"; label: qsTr("high"); value: panel.audio.named[2]; colour: "#5aa9e6" }
            LevelMeter { label: qsTr("all"); value: panel.audio.level; colour: "#c8d0d8" }
            Item { width: 6 }
            Repeater {
                model: panel.audio.bands.length
                LevelMeter {
                    required property int index
                    implicitWidth: 22
                    label: panel.audio.bandLabels[index]
                    value: panel.audio.bands[index]
                    colour: "#8f7ad6"
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Rectangle {
                objectName: "beatLight"
                width: 18
                height: 18
                radius: 9
                color: Qt.rgba(1, 0.75, 0.3, 0.15 + 0.85 * panel.audio.beat)
                border.color: "#f0b35a"
            }
            Label {
                objectName: "audioTempo"
                Layout.fillWidth: true
                text: panel.audio.bpm > 0
                      ? qsTr("%1 BPM  (confidence %2%)").arg(panel.audio.bpm.toFixed(1)).arg(Math.round(panel.audio.tempoConfidence * 100))
                      : panel.audio.source === AudioController.NoSource ? qsTr("tempo: no audio source")
                      : panel.audio.source === AudioController.FileSource && !panel.audio.playing ? qsTr("tempo: not playing")
                      : qsTr("tempo: listening…")
                color: panel.audio.driving ? palette.windowText : "#7f8b99"
            }
        }

        // --- Routes ----------------------------------------------------------
        RowLayout {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            Layout.topMargin: 4
            Label { text: qsTr("Routes"); font.bold: true; Layout.fillWidth: true }
            Button {
                objectName: "routeAdd"
                text: qsTr("Add route")
                onClicked: {
                    Editor.routes.addRoute()
                    panel.showNewRoute()
                }
            }
        }
        Label {
            Layout.fillWidth: true
            Layout.leftMargin: 8
            Layout.rightMargin: 8
            visible: routeList.count === 0
            wrapMode: Text.Wrap
            color: "#7f8b99"
            text: qsTr("No routes: audio does not move the school. Add one, or load a preset.")
        }
        Repeater {
            id: routeList
            model: Editor.routes
            RouteRow {
                Layout.fillWidth: true
                Layout.leftMargin: 6
                Layout.rightMargin: 6
            }
        }
        Item { Layout.preferredHeight: 8 }
    }
}
