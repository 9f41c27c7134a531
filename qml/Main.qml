// The editor window: the live view with its overlays, a tool bar, and a side
// panel with every parameter and the preset browser. Binds and lays out only;
// the work is in Editor (C++).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

ApplicationWindow {
    id: window
    width: 1280
    height: 720
    minimumWidth: 800
    minimumHeight: 500
    title: "MiroFish — " + Editor.presetName + (Editor.modified ? " (modified)" : "")
    color: "#0b1622"
    palette.window: "#1b222c"
    palette.windowText: "#dde4ec"
    palette.base: "#121820"
    palette.alternateBase: "#222b36"
    palette.text: "#dde4ec"
    palette.button: "#2a3441"
    palette.buttonText: "#dde4ec"
    palette.highlight: "#3d9bd6"
    palette.highlightedText: "white"
    palette.toolTipBase: "#2a3441"
    palette.toolTipText: "#dde4ec"
    palette.placeholderText: "#808a96"
    palette.mid: "#3a4552"
    palette.dark: "#10151b"
    palette.light: "#3a4552"
    // Set above for every colour group: a disabled control would look
    // exactly like an enabled one without its own, dimmer colours.
    palette.disabled.buttonText: "#6b7582"
    palette.disabled.windowText: "#6b7582"
    palette.disabled.text: "#6b7582"
    palette.disabled.button: "#222a34"

    property bool helpVisible: false
    property bool panelVisible: true
    // A control uses Space (a button, a check box) and the arrows (a slider)
    // itself, and Tab moves the focus on from it. The window's shortcuts for
    // those keys give way to a control reached with Tab (visualFocus), so that
    // one clicked with the mouse leaves Space and Right to the transport, and
    // Tab gives way to any control in the Tab chain, a field typed into
    // included, so that Tab moves on from it and the number typed counts.
    readonly property bool keysGoToControl: activeFocusItem !== null && activeFocusItem.visualFocus === true
    readonly property bool tabGoesToControl: activeFocusItem !== null && activeFocusItem.activeFocusOnTab
    // A drop-down list of the side panel reached with Tab takes letters and
    // digits too: it selects the entry they begin ("w" for wrap), where they
    // switched the school's overlays and tools behind it. Not the export
    // dialog's, which takes the keyboard as it opens: there the window's
    // shortcuts work, as during a long export.
    readonly property bool lettersGoToControl: keysGoToControl && activeFocusItem.textRole !== undefined
                                               && !exportDialog.visible
    property alias panelTab: tabs.currentIndex

    // A number typed but not confirmed yet (no Return or Tab) counts before
    // Save, the tool bar's undo and redo, and closing: the focus moves to the
    // view, which ends the edit as clicking elsewhere does. Other text (a
    // preset's name being typed) keeps its focus.
    function commitTyping() {
        const item = activeFocusItem
        if (item && (item.commitsTyping === true || (item.parent && item.parent.commitsTyping === true)))
            canvas.view.forceActiveFocus()
    }

    // A number confirmed with Return in the panel or the tool bar: the keys
    // go back to the school (a tool's digit, Space), as a click on the view
    // gives them. The field kept them: "3" for the obstacle tool was typed
    // after the number, to be committed by the next click on the view.
    function giveKeysToView() { canvas.view.forceActiveFocus() }

    // A control hidden with the panel (P) or its tab keeps the keyboard (Qt
    // leaves focus where it is): Space pressed its hidden reset button, Left
    // and Right moved a hidden slider, a tool's digit was typed into a hidden
    // field. Once hidden, the keys go back to the school; a number being
    // typed there counts, as when the view is clicked.
    function keysLeaveHiddenControl() {
        Qt.callLater(() => {
            if (activeFocusItem && !activeFocusItem.visible) giveKeysToView()
        })
    }
    onPanelVisibleChanged: keysLeaveHiddenControl()

    // A control reached with Tab in a scrolled list (the parameters, the
    // audio routes) is scrolled into view: a number was typed into, or an
    // arrow moved, a control below the list's edge that nobody could see.
    function revealFocusedControl() {
        const item = activeFocusItem
        if (!item || !item.visible) return
        for (let list = item.parent; list; list = list.parent) {
            if (list.contentY === undefined || list.contentItem === undefined || list.originY === undefined) continue
            const place = item.mapToItem(list.contentItem, 0, 0, item.width, item.height)
            const margin = 8
            let y = list.contentY
            if (place.y - margin < y) y = place.y - margin
            else if (place.y + place.height + margin > y + list.height) y = place.y + place.height + margin - list.height
            list.contentY = Math.max(list.originY, Math.min(y, list.originY + list.contentHeight - list.height))
            return
        }
    }
    onActiveFocusItemChanged: Qt.callLater(revealFocusedControl)

    // The tool bar's undo over a number being typed into a box whose value is
    // no step of the history (the fish count, the latency, a morph's time):
    // the typing is what it takes back. Committed, the number applied and an
    // older, unrelated edit was undone. Returns whether there was such typing.
    function dropTyping() {
        const item = activeFocusItem
        const box = item && item.typingIsEdit !== undefined ? item : item && item.parent
        if (!box || box.typingIsEdit !== false || !box.typing) return false
        box.showValue()
        return true
    }

    // Leaving full screen gives back the window as it was: maximised stays maximised.
    property int visibilityBeforeFullScreen: Window.Windowed
    function toggleFullScreen() {
        if (window.visibility === Window.FullScreen) {
            leaveFullScreen()
        } else {
            visibilityBeforeFullScreen = window.visibility === Window.Maximized ? Window.Maximized : Window.Windowed
            window.visibility = Window.FullScreen
        }
    }
    function leaveFullScreen() { window.visibility = visibilityBeforeFullScreen }
    function saveStill(factor) {
        // In the screen's pixels: on a display scaled x2 the still at the
        // view's size had half the pixels shown.
        // Rounded as the controller rounds the view's own size, so that twice
        // it is exactly twice at a scale of 1.5 too.
        const w = factor > 0 ? Math.round(canvas.width * Screen.devicePixelRatio) * factor : 3840
        const h = factor > 0 ? Math.round(canvas.height * Screen.devicePixelRatio) * factor : 2160
        exporter.saveStill(canvas, w, h)
    }
    function scaleFish(factor) {
        Editor.fishCount = Math.max(1, Math.min(Editor.maxFish, Math.round(Editor.fishCount * factor)))
    }

    header: MainToolBar {
        onHelpRequested: window.helpVisible = !window.helpVisible
        onPanelToggled: window.panelVisible = !window.panelVisible
        onExportRequested: exportDialog.open()
        onClearCanvasRequested: canvas.view.clearTrails()
        onStillRequested: factor => window.saveStill(factor)
        onUndoRequested: {
            if (window.dropTyping()) return
            window.commitTyping()
            Editor.undo()
        }
        // The redo first: the number typed, committed first, would be a new
        // step and throw away the step to redo.
        onRedoRequested: { Editor.redo(); window.commitTyping() }
    }

    RowLayout {
        anchors.fill: parent
        spacing: 0

        Item {
            Layout.fillWidth: true
            Layout.fillHeight: true

            FishCanvas {
                id: canvas
                anchors.fill: parent
                view.editor: Editor
                view.focus: true
            }
            StatsOverlay {
                anchors.left: parent.left
                anchors.top: parent.top
                anchors.margins: 10
                visible: Editor.showStats
            }
            SelectedFishPanel {
                anchors.left: parent.left
                anchors.bottom: banner.top
                anchors.margins: 10
            }
            ErrorBanner {
                id: banner
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.bottom: parent.bottom
            }
        }

        Pane {
            id: sidePanel
            visible: window.panelVisible
            Layout.preferredWidth: 370
            Layout.fillHeight: true
            padding: 0

            ColumnLayout {
                anchors.fill: parent
                spacing: 0
                TabBar {
                    id: tabs
                    Layout.fillWidth: true
                    onCurrentIndexChanged: window.keysLeaveHiddenControl()
                    // Fusion draws the open tab only a shade lighter than the others: its name is bold too.
                    TabButton { text: qsTr("Parameters"); font.bold: checked }
                    TabButton { text: qsTr("Presets"); font.bold: checked }
                    TabButton { objectName: "audioTab"; text: qsTr("Audio"); font.bold: checked }
                }
                StackLayout {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    currentIndex: tabs.currentIndex
                    ParamPanel {}
                    PresetPanel { id: presetPanel }
                    AudioPanel { id: audioPanel }
                }
            }
        }
    }

    HelpOverlay {
        anchors.fill: parent
        visible: window.helpVisible
        onCloseRequested: window.helpVisible = false
    }

    FullScreenGeometry { window: window }
    ExportController { id: exporter; objectName: "exporter"; editor: Editor }
    ExportDialog {
        id: exportDialog
        objectName: "exportDialog"
        exporter: exporter
        x: (window.width - width) / 2
        // Below the tool bar, unless its rows (a status, the progress) would
        // then reach past the bottom of a small window: its buttons stay in reach.
        y: Math.max(0, Math.min(60, window.height - height))
    }

    // Closing during an export asks first (the export goes with the window,
    // and its dialog may be closed); then, with unsaved changes: Save (a
    // preset of yours), Discard, or Cancel (for another preset, Cancel leads
    // to Save as).
    property bool closeConfirmed: false
    property bool exportStopConfirmed: false
    onClosing: close => {
        commitTyping()
        if (exporter.running && !exportStopConfirmed && !closeConfirmed) {
            close.accepted = false
            confirmStopExport.open()
            return
        }
        if (Editor.modified && !closeConfirmed) {
            close.accepted = false
            confirmClose.open()
            return
        }
        // Only now, every question answered: Cancel on the unsaved changes
        // leaves the export running.
        if (exporter.running) exporter.cancel()
    }
    function closeNow() {
        closeConfirmed = true
        window.close()
    }
    Dialog {
        id: confirmStopExport
        objectName: "confirmStopExport"
        title: qsTr("Export running")
        modal: true
        anchors.centerIn: Overlay.overlay
        width: 460
        ReturnPressesFocusedButton { within: confirmStopExport.contentItem }
        Label {
            objectName: "confirmStopExportText"
            width: parent.width
            wrapMode: Text.Wrap
            // Its length is unknown while it reads the audio it lasts as long as.
            text: (exporter.readingAudio ? qsTr("An export is reading its audio file.")
                                         : qsTr("An export is running (%1 of %2 frames).")
                                               .arg(exporter.framesDone).arg(exporter.framesTotal))
                  + " " + qsTr("Closing the window stops it: %1")
                  .arg(exporter.writingVideo ? qsTr("no video is kept.") : qsTr("the frames written so far stay."))
        }
        footer: DialogButtonBox {
            Button { text: qsTr("Keep exporting"); DialogButtonBox.buttonRole: DialogButtonBox.RejectRole }
            Button { text: qsTr("Stop and close"); DialogButtonBox.buttonRole: DialogButtonBox.DestructiveRole }
            onClicked: button => {
                confirmStopExport.close()
                if (button.DialogButtonBox.buttonRole !== DialogButtonBox.DestructiveRole) return
                window.exportStopConfirmed = true
                window.close()
            }
        }
        // An export that ends while this asks needs no answer.
        Connections {
            target: exporter
            function onStateChanged() { if (!exporter.running) confirmStopExport.close() }
        }
    }
    Dialog {
        id: confirmClose
        objectName: "confirmClose"
        title: qsTr("Unsaved changes")
        modal: true
        anchors.centerIn: Overlay.overlay
        width: 460
        standardButtons: (Editor.presetIsUser ? Dialog.Save : Dialog.NoButton) | Dialog.Discard | Dialog.Cancel
        ReturnPressesFocusedButton { within: confirmClose.contentItem }
        Label {
            width: parent.width
            wrapMode: Text.Wrap
            textFormat: Text.PlainText  // a preset's name, as typed
            text: Editor.presetIsUser
                  ? qsTr("%1 has changes that are not saved. Save them before closing?").arg(Editor.presetName)
                  : qsTr("%1 has changes that are not saved, and it is not a preset of yours: Cancel, then Save as in the Presets tab, keeps them.").arg(Editor.presetName)
        }
        onAccepted: if (Editor.savePreset()) window.closeNow()
        onDiscarded: {
            close()
            window.closeNow()
        }
        onRejected: {
            window.exportStopConfirmed = false  // staying: an export goes on, and is asked about again
            if (Editor.presetIsUser) return
            window.panelVisible = true
            tabs.currentIndex = 1
            presetPanel.focusName()
        }
    }

    // Nor while the export dialog is open: the keyboard is on its Cancel
    // export or Size without their focus frame (given, not reached with
    // Tab), and Space paused the school behind them.
    Shortcut { sequence: "Space"; enabled: !window.keysGoToControl && !exportDialog.visible; onActivated: Editor.togglePause() }
    Shortcut { sequences: ["Right", "."]; enabled: !window.keysGoToControl && !exportDialog.visible; onActivated: Editor.stepOnce() }
    Shortcut { sequence: "R"; enabled: !window.lettersGoToControl; onActivated: Editor.resetWithNewSeed() }
    Shortcut { sequences: [StandardKey.Undo]; onActivated: Editor.undo() }
    Shortcut { sequences: ["Ctrl+Shift+Z", "Ctrl+Y"]; onActivated: Editor.redo() }
    Shortcut { sequences: [StandardKey.Save]; onActivated: { window.commitTyping(); Editor.savePreset() } }
    Shortcut {
        sequence: "Ctrl+Shift+S"
        onActivated: {
            window.commitTyping()
            window.panelVisible = true
            tabs.currentIndex = 1
            presetPanel.saveAsOrAskName()
        }
    }
    Shortcut { sequence: "F1"; onActivated: window.helpVisible = !window.helpVisible }
    Shortcut { sequence: "Ctrl+E"; onActivated: exportDialog.open() }
    Shortcut { sequence: "C"; enabled: !window.lettersGoToControl; onActivated: canvas.view.clearTrails() }
    Connections {
        target: Editor
        function onSchoolReplaced() { canvas.view.clearTrails() }
    }
    Shortcut { sequence: "F12"; onActivated: window.saveStill(1) }
    Shortcut { sequence: "Shift+F12"; onActivated: window.saveStill(2) }
    Shortcut { sequence: "F11"; onActivated: window.toggleFullScreen() }
    // A number typed and not confirmed counts first (the morph time among
    // them), as for the Morph button, which takes the focus from it. One
    // morph a press: held, the key ran through presets, each cut off and
    // each a step to undo.
    Shortcut { sequence: "PgDown"; autoRepeat: false; onActivated: { window.commitTyping(); Editor.morphToNeighbour(1, presetPanel.morphTime) } }
    Shortcut { sequence: "PgUp"; autoRepeat: false; onActivated: { window.commitTyping(); Editor.morphToNeighbour(-1, presetPanel.morphTime) } }
    Shortcut {
        sequence: "Escape"
        onActivated: {
            // The innermost first: a fish selected in fullscreen is let go
            // before the window leaves fullscreen, as its panel's "Esc deselects" says.
            if (exportDialog.visible) exportDialog.close()
            else if (window.helpVisible) window.helpVisible = false
            // A control reached with Tab gives the keys back to the school:
            // none did, and Space pressed the focused Load or Reset.
            else if (window.keysGoToControl) window.giveKeysToView()
            else Editor.clearSelectionOrSayNone()
        }
    }
    Connections {
        target: Editor
        function onNothingSelected() { if (window.visibility === Window.FullScreen) window.leaveFullScreen() }
    }
    Shortcut { sequence: "Tab"; enabled: !window.tabGoesToControl; onActivated: Editor.selectNextFish() }
    Shortcut { sequence: "N"; enabled: !window.lettersGoToControl; onActivated: Editor.showNeighbours = !Editor.showNeighbours }
    Shortcut { sequence: "A"; enabled: !window.lettersGoToControl; onActivated: Editor.showForces = !Editor.showForces }
    Shortcut { sequence: "V"; enabled: !window.lettersGoToControl; onActivated: Editor.showVision = !Editor.showVision }
    Shortcut { sequence: "G"; enabled: !window.lettersGoToControl; onActivated: Editor.showGrid = !Editor.showGrid }
    Shortcut { sequence: "T"; enabled: !window.lettersGoToControl; onActivated: Editor.showStats = !Editor.showStats }
    Shortcut { sequence: "P"; enabled: !window.lettersGoToControl; onActivated: window.panelVisible = !window.panelVisible }
    Shortcut { sequence: "W"; enabled: !window.lettersGoToControl; onActivated: Editor.worldFollowsView = !Editor.worldFollowsView }
    Shortcut { sequence: "M"; enabled: !window.lettersGoToControl; onActivated: Editor.audio.togglePlay() }
    Shortcut { sequence: "["; enabled: !window.lettersGoToControl; onActivated: Editor.audio.seekBy(-5) }
    Shortcut { sequence: "]"; enabled: !window.lettersGoToControl; onActivated: Editor.audio.seekBy(5) }
    Shortcut {
        sequences: [StandardKey.Open]
        onActivated: { window.panelVisible = true; tabs.currentIndex = 2; audioPanel.openFileDialog() }
    }
    Shortcut { sequences: ["+", "="]; enabled: !window.lettersGoToControl; onActivated: window.scaleFish(1.5) }
    Shortcut { sequence: "-"; enabled: !window.lettersGoToControl; onActivated: window.scaleFish(1 / 1.5) }
    Shortcut { sequence: "1"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.School }
    Shortcut { sequence: "2"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.PlacePredator }
    Shortcut { sequence: "3"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.PlaceObstacle }
    Shortcut { sequence: "4"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.PlaceAttract }
    Shortcut { sequence: "5"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.PlaceRepel }
    Shortcut { sequence: "6"; enabled: !window.lettersGoToControl; onActivated: Editor.tool = Editor.PlaceVortex }
}
