// The stats panel: frame rate, step time, fish, and the numbers that tell
// whether the school looks alive (mean neighbours highlighted outside 5-8).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Rectangle {
    readonly property var s: Editor.stats
    // Before the first report (a quarter second) the map is empty: a dash, not "undefined".
    function fixed(v, d) { return v === undefined ? "–" : Number(v).toFixed(d) }
    function shown(v) { return v === undefined ? "–" : v }

    // Nearly opaque: the world's edge and the fish must not run through the text.
    color: "#e8101820"
    radius: 6
    implicitWidth: column.implicitWidth + 20
    implicitHeight: column.implicitHeight + 16
    ClickShield {}

    ColumnLayout {
        id: column
        objectName: "statsColumn"
        anchors.centerIn: parent
        spacing: 2
        Label {
            id: firstLine
            text: qsTr("%1 fps · step %2 ms · %3 fish · step %4").arg(fixed(s.fps, 0)).arg(fixed(s.stepMs, 2)).arg(shown(s.fish)).arg(shown(s.step))
        }
        Label {
            // Wrapped within the other lines' width: on one line it ran on
            // under the side panel of a small window, its advice cut off.
            Layout.maximumWidth: Math.max(firstLine.implicitWidth, forcesLine.implicitWidth)
            wrapMode: Text.WordWrap
            visible: s.behind === true
            color: "#ff7060"
            font.bold: true
            text: qsTr("Simulation behind: %1x real time (%2)").arg(fixed(s.realTime, 2)).arg(s.behindAdvice)
        }
        Label {
            visible: Editor.paused
            color: "#f0b35a"
            text: qsTr("Paused (Space plays, Right arrow steps)")
        }
        Label {
            textFormat: Text.StyledText
            text: qsTr("neighbours <font color='%1'>%2</font> (5-8 healthy) · speed %3 px/s")
                  .arg(s.meanNeighbours === undefined ? "#dde4ec" : s.neighboursHealthy ? "#9be29b" : "#ffb347").arg(fixed(s.meanNeighbours, 1)).arg(fixed(s.meanSpeed, 0))
        }
        Label {
            text: qsTr("polarisation %1 · milling %2").arg(fixed(s.polarisation, 2)).arg(fixed(s.milling, 2))
        }
        Label {
            id: forcesLine
            textFormat: Text.StyledText
            text: qsTr("forces (300 steps) <font color='#ff6a6a'>sep %1</font> · <font color='#6ee68a'>ali %2</font> · <font color='#7fa8ff'>coh %3</font> px/s^2")
                  .arg(fixed(s.forceSeparation, 0)).arg(fixed(s.forceAlignment, 0)).arg(fixed(s.forceCohesion, 0))
        }
        Label {
            color: "#7f8b99"
            text: qsTr("world %1 · seed %2").arg(shown(s.world)).arg(shown(s.seed)) + (s.morphing ? qsTr(" · morphing") : "")
        }
    }
}
