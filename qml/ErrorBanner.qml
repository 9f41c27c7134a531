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
    height: visible ? row.implicitHeight + 10 : 0
    color: Editor.messageIsError ? "#c0501818" : "#a0183040"

    Timer {
        running: Editor.message !== "" && !Editor.messageIsError
        interval: 4000
        onTriggered: Editor.clearMessage()
    }
    // Centred, not filling the banner: its height follows the text's, and
    // a layout that filled it would feed that height back into itself.
    RowLayout {
        id: row
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        anchors.leftMargin: 10
        anchors.rightMargin: 4
        Label {
            id: label
            objectName: "messageText"
            Layout.fillWidth: true
            text: Editor.message
            textFormat: Text.PlainText  // names and paths as they are
            wrapMode: Text.Wrap
        }
        ToolButton { text: "✕"; onClicked: Editor.clearMessage() }
    }
}
