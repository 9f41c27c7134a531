// The clicked fish's own values.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Rectangle {
    readonly property var f: Editor.selectedFish
    visible: f.id !== undefined
    color: "#b0101820"
    radius: 6
    implicitWidth: column.implicitWidth + 20
    implicitHeight: column.implicitHeight + 16
    ClickShield {}

    ColumnLayout {
        id: column
        anchors.centerIn: parent
        spacing: 2
        Label { text: qsTr("Fish #%1").arg(f.id) + (f.alarmed ? qsTr("  · alarmed %1 s").arg(Number(f.alarmSeconds).toFixed(1)) : ""); font.bold: true }
        Label {
            text: (f.neighbours === 1 ? qsTr("speed %1 px/s · %2 neighbour · sees %3 px") : qsTr("speed %1 px/s · %2 neighbours · sees %3 px"))
                  .arg(Number(f.speed).toFixed(0)).arg(f.neighbours).arg(Number(f.perception).toFixed(0))
        }
        Label {
            textFormat: Text.StyledText
            text: qsTr("<font color='#ff6a6a'>sep %1</font> · <font color='#6ee68a'>ali %2</font> · <font color='#7fa8ff'>coh %3</font> px/s^2")
                  .arg(Number(f.separation).toFixed(0)).arg(Number(f.alignment).toFixed(0)).arg(Number(f.cohesion).toFixed(0))
        }
        Label { text: qsTr("Esc deselects"); color: "#7f8b99"; font.pixelSize: 11 }
    }
}
