// Transport, fish count, pointer tools, overlay switches, undo and help.
import QtQuick
import QtQuick.Controls as C
import MiroFish

C.ToolBar {
    id: bar
    signal helpRequested()
    signal panelToggled()
    signal exportRequested()
    signal clearCanvasRequested()
    // factor: of the view's size; 0: as large as fits in 3840 x 2160
    signal stillRequested(real factor)
    signal undoRequested()
    signal redoRequested()

    component ToolToggle: C.ToolButton {
        property string tip
        checkable: true
        // A click leaves the keyboard where it was: focus here made Tab walk
        // the tool bar instead of selecting the next fish, and Space press
        // the button reached.
        focusPolicy: Qt.NoFocus
        C.ToolTip.visible: hovered && tip !== ""
        C.ToolTip.text: tip
        C.ToolTip.delay: 500
    }

    // Wraps onto a second row in a narrow window (the window's 800 px
    // minimum cut off everything from the overlay switches on), a group of
    // buttons at a time: it broke between N and A, or undo and redo.
    Flow {
        width: parent.width
        spacing: 2

        Row {
            spacing: 2
            ToolToggle {
                id: playPause
                text: Editor.paused ? playLabel.text : pauseLabel.text
                checkable: false
                tip: qsTr("Play / pause (Space)")
                onClicked: Editor.togglePause()
                // As wide as the wider label, so the buttons after it stay put.
                width: Math.max(playLabel.advanceWidth, pauseLabel.advanceWidth) + leftPadding + rightPadding
                TextMetrics { id: playLabel; font: playPause.font; text: "▶ " + qsTr("Play") }
                TextMetrics { id: pauseLabel; font: playPause.font; text: "❚❚ " + qsTr("Pause") }
            }
            ToolToggle { text: qsTr("Step"); checkable: false; tip: qsTr("One step of 1/60 s (Right arrow)"); onClicked: Editor.stepOnce() }
            ToolToggle { text: qsTr("Reset"); checkable: false; tip: qsTr("Respawn with a new seed (R)"); onClicked: Editor.resetWithNewSeed() }
        }

        C.ToolSeparator {}
        Row {
            spacing: 2
            C.Label { text: qsTr("Fish"); height: fishBox.height; verticalAlignment: Text.AlignVCenter }
            CountBox {
                id: fishBox
                objectName: "fishCount"
                from: 1
                to: Editor.maxFish
                value: Editor.fishCount
                // Half the power of ten below the count (log10: log / LN10 gives 2.9999… at 1000).
                stepSize: Math.max(1, Math.pow(10, Math.floor(Math.log10(Math.max(value, 1)))) / 2)
                onValueModified: Editor.fishCount = value
                typingIsEdit: false
                width: 130
                C.ToolTip.visible: hovered
                C.ToolTip.text: qsTr("1 to %1 (+ / - scale by 1.5)").arg(Editor.maxFish)
                C.ToolTip.delay: 500
            }
        }

        C.ToolSeparator {}
        C.ButtonGroup { id: tools }
        Row {
            spacing: 2
            Repeater {
                model: [
                    { tool: Editor.School, text: qsTr("School"), tip: qsTr("Left drag attracts, right drag repels, a fast swipe scares, a click selects a fish (1)") },
                    { tool: Editor.PlacePredator, text: qsTr("Predator"), tip: qsTr("Click to place, drag to move, right-click to remove (2)") },
                    { tool: Editor.PlaceObstacle, text: qsTr("Obstacle"), tip: qsTr("Click to place, drag to move, right-click to remove (3)") },
                    { tool: Editor.PlaceAttract, text: qsTr("Attract"), tip: qsTr("Place an attracting field (4)") },
                    { tool: Editor.PlaceRepel, text: qsTr("Repel"), tip: qsTr("Place a repelling field (5)") },
                    { tool: Editor.PlaceVortex, text: qsTr("Vortex"), tip: qsTr("Place a vortex (6)") }
                ]
                ToolToggle {
                    required property var modelData
                    text: modelData.text
                    tip: modelData.tip
                    C.ButtonGroup.group: tools
                    checked: Editor.tool === modelData.tool
                    onClicked: Editor.tool = modelData.tool
                }
            }
            ToolToggle { text: qsTr("Clear"); checkable: false; tip: qsTr("Remove every predator, obstacle and field"); onClicked: Editor.clearObjects() }
        }

        C.ToolSeparator {}
        Row {
            spacing: 2
            ToolToggle { text: "N"; tip: qsTr("Neighbour lines (N)"); checked: Editor.showNeighbours; onToggled: Editor.showNeighbours = checked }
            ToolToggle { text: "A"; tip: qsTr("Force arrows: separation red, alignment green, cohesion blue (A)"); checked: Editor.showForces; onToggled: Editor.showForces = checked }
            ToolToggle { text: "V"; tip: qsTr("Field of view and radii (V)"); checked: Editor.showVision; onToggled: Editor.showVision = checked }
            ToolToggle { text: "G"; tip: qsTr("Grid cells (G)"); checked: Editor.showGrid; onToggled: Editor.showGrid = checked }
            ToolToggle { text: "T"; tip: qsTr("Stats panel (T)"); checked: Editor.showStats; onToggled: Editor.showStats = checked }
            ToolToggle { text: qsTr("Fit view"); tip: qsTr("The world follows the view's size instead of keeping the preset's (W)"); checked: Editor.worldFollowsView; onToggled: Editor.worldFollowsView = checked }
        }

        C.ToolSeparator {}
        Row {
            spacing: 2
            ToolToggle { text: qsTr("Clear canvas"); checkable: false; tip: qsTr("Wipe the trails (C)"); onClicked: bar.clearCanvasRequested() }
            ToolToggle {
                text: qsTr("Still")
                checkable: false
                tip: qsTr("Save a PNG of the view (F12; Shift+F12 at twice its size)")
                onClicked: stillMenu.popup(0, height)  // below the button, not at the pointer
                C.ToolTip.visible: hovered && !stillMenu.visible  // it would cover the menu's first entry
                C.Menu {
                    id: stillMenu
                    // As wide as its widest entry: the default width cut the last one short.
                    width: {
                        let widest = 0
                        for (let i = 0; i < count; ++i) widest = Math.max(widest, itemAt(i).implicitWidth)
                        return widest + leftPadding + rightPadding
                    }
                    C.MenuItem { text: qsTr("At the view's size (F12)"); onTriggered: bar.stillRequested(1) }
                    C.MenuItem { text: qsTr("At twice its size (Shift+F12)"); onTriggered: bar.stillRequested(2) }
                    C.MenuItem { text: qsTr("Fitting 3840 × 2160 (the view's shape)"); onTriggered: bar.stillRequested(0) }
                }
            }
            ToolToggle { text: qsTr("Export…"); checkable: false; tip: qsTr("Frames or a video, offscreen (Ctrl+E)"); onClicked: bar.exportRequested() }
        }

        Row {
            spacing: 2
            ToolToggle { text: "↶"; checkable: false; enabled: Editor.canUndo; tip: Editor.undoText + " (Ctrl+Z)"; onClicked: bar.undoRequested() }
            ToolToggle { text: "↷"; checkable: false; enabled: Editor.canRedo; tip: Editor.redoText + " (Ctrl+Shift+Z)"; onClicked: bar.redoRequested() }
        }
        Row {
            spacing: 2
            ToolToggle { text: qsTr("Panel"); checkable: false; tip: qsTr("Show / hide the side panel (P)"); onClicked: bar.panelToggled() }
            ToolToggle { text: "?"; checkable: false; tip: qsTr("Keyboard shortcuts (F1)"); onClicked: bar.helpRequested() }
        }
    }
}
