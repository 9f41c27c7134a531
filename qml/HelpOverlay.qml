// F1: every shortcut and what the mouse does.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts

Rectangle {
    id: help
    signal closeRequested()
    color: "#d0081018"


    readonly property var keys: [
        ["Space", qsTr("play / pause")],
        ["Right arrow or .", qsTr("one step (pauses)")],
        ["R", qsTr("reset with a new seed (clears the trails)")],
        ["+ or = / -", qsTr("more / fewer fish (x1.5)")],
        ["1 … 6", qsTr("tools: school, predator, obstacle, attract, repel, vortex")],
        ["Tab", qsTr("select the next fish (by id); in the panel, the next control")],
        ["N", qsTr("neighbour lines (first 20 fish, or the selected one)")],
        ["A", qsTr("force arrows: separation red, alignment green, cohesion blue")],
        ["V", qsTr("field of view and radii")],
        ["G", qsTr("grid cells")],
        ["T", qsTr("stats panel")],
        ["W", qsTr("world follows the view / keeps the preset's size")],
        ["P", qsTr("side panel")],
        ["Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y", qsTr("undo / redo a parameter or route edit, a preset load or a morph")],
        ["Ctrl+S / Ctrl+Shift+S", qsTr("save preset / save as")],
        ["Ctrl+O", qsTr("open an audio file (Audio tab)")],
        ["M", qsTr("play / pause the audio file")],
        ["[ / ]", qsTr("audio: back / forward 5 s")],
        ["C", qsTr("clear the trail canvas")],
        ["F12 / Shift+F12", qsTr("save a still (PNG) at the view's size / twice it")],
        ["Ctrl+E", qsTr("export frames or a video")],
        ["PgDown / PgUp", qsTr("morph to the next / previous preset in the list")],
        ["F11", qsTr("fullscreen")],
        ["Esc", qsTr("close the export dialog or this, deselect, leave fullscreen")],
        ["F1", qsTr("this help")]
    ]
    readonly property var mouse: [
        [qsTr("Left drag"), qsTr("fish gather around the pointer")],
        [qsTr("Right drag"), qsTr("fish are pushed away")],
        [qsTr("Fast swipe"), qsTr("scares the school along the gesture")],
        [qsTr("Click"), qsTr("selects a fish and shows its values")],
        [qsTr("Object tools"), qsTr("click places, drag moves, right-click removes")]
    ]

    // Under the list: takes the hover and the wheel it leaves, so that the
    // dimmed side panel below shows no tool tips over the help and does not
    // scroll unseen.
    MouseArea {
        anchors.fill: parent
        hoverEnabled: true
        onWheel: wheel => wheel.accepted = true
    }

    // Scrolls where the window is too short for the whole list (its 500 px
    // minimum cut off the first and the last lines); centred where it fits.
    Flickable {
        id: flick
        objectName: "helpScroll"
        anchors.fill: parent
        contentHeight: Math.max(height, column.implicitHeight + 40)
        boundsBehavior: Flickable.StopAtBounds
        clip: true
        // Shown for as long as the list is cut off: the style's bar shows only
        // while scrolled, and the last lines (F11, Esc, the mouse) were out
        // of sight with no sign that there was more.
        ScrollBar.vertical: ScrollBar {
            objectName: "helpScrollBar"
            policy: flick.contentHeight > flick.height ? ScrollBar.AlwaysOn : ScrollBar.AsNeeded
        }

        MouseArea {
            width: flick.width
            height: flick.contentHeight
            onClicked: help.closeRequested()
        }

        ColumnLayout {
            id: column
            anchors.horizontalCenter: parent.horizontalCenter
            y: Math.max(20, (flick.height - implicitHeight) / 2)
            spacing: 12
            Label { text: qsTr("MiroFish — keys and mouse"); font.pixelSize: 20; font.bold: true }
            GridLayout {
                columns: 2
                columnSpacing: 24
                rowSpacing: 4
                // Flattened pairs: the even cells are keys, the odd ones what they do.
                Repeater {
                    model: [].concat.apply([], help.keys.concat(help.mouse))
                    delegate: Label {
                        required property var modelData
                        required property int index
                        text: modelData
                        font.bold: index % 2 === 0
                        color: index % 2 === 0 ? "#8fc7ee" : "#dde4ec"
                    }
                }
            }
            Label { text: qsTr("Click anywhere or press Esc / F1 to close"); color: "#7f8b99" }
        }
    }
}
