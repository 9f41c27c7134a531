// The message line: errors (red, stay until dismissed) and confirmations
// (fade after a few seconds).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Rectangle {
    id: banner
    objectName: "messageBanner"
    visible: Editor.message !== ""
    height: visible ? label.implicitHeight + 14 : 0
    color: Editor.messageIsError ? "#c0501818" : "#a0183040"

    Timer {
        running: Editor.message !== "" && !Editor.messageIsError
        interval: 4000
        onTriggered: Editor.clearMessage()
    }
    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 10
        anchors.rightMargin: 4
        Label {
            id: label
            objectName: "messageText"
            Layout.fillWidth: true
            text: Editor.message
            wrapMode: Text.Wrap
        }
        ToolButton { text: "✕"; onClicked: Editor.clearMessage() }
    }
}
