// One vertical level meter (0..1) with its label under it.
import QtQuick
import QtQuick.Controls

Item {
    id: meter
    property real value: 0
    property string label: ""
    property color colour: "#3d9bd6"
    implicitWidth: 26
    implicitHeight: 90

    Rectangle {
        id: track
        anchors.top: parent.top
        anchors.bottom: caption.top
        anchors.bottomMargin: 2
        anchors.horizontalCenter: parent.horizontalCenter
        width: Math.max(6, meter.width - 8)
        color: "#121820"
        border.color: "#3a4552"
        Rectangle {
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            anchors.margins: 1
            height: Math.max(0, Math.min(1, meter.value)) * (track.height - 2)
            color: meter.colour
        }
    }
    Label {
        id: caption
        anchors.bottom: parent.bottom
        anchors.horizontalCenter: parent.horizontalCenter
        text: meter.label
        font.pixelSize: 10
        color: "#9aa6b2"
    }
}
