// The message line: errors (red, stay until dismissed) and confirmations
// (fade after a few seconds).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Rectangle {
    id: banner
    objectName: "messageBanner"
    // On a stage (full screen, the side panel hidden, every overlay off:
    // `--overlays none`) a confirmation is not drawn over the school the
    // audience sees: each PgDown put "Morphing to ..." across it. Errors
    // still are, and with the panel shown (at work on the preset) all are.
    readonly property bool onStage: Window.visibility === Window.FullScreen && !Window.window.panelVisible
                                    && !Editor.showNeighbours && !Editor.showForces && !Editor.showVision
                                    && !Editor.showGrid && !Editor.showStats
    visible: Editor.message !== "" && (Editor.messageIsError || !onStage)
    height: visible ? row.implicitHeight + 10 : 0
    // Errors pile up (each new one above the last): past a third of the
    // view the text scrolls, and the ✕ stays in the banner, on the screen.
    readonly property real longestText: parent ? Math.max(parent.height / 3, 60) : 200
    color: Editor.messageIsError ? "#c0501818" : "#a0183040"
    ClickShield {}

    // Each confirmation stays its own 4 s: one that replaces another restarts
    // the count (a binding of `running` stayed true and did not).
    Timer {
        id: fade
        interval: 4000
        onTriggered: Editor.clearMessage()
    }
    Connections {
        target: Editor
        function onMessageChanged() {
            scroller.contentY = 0
            if (Editor.message !== "" && !Editor.messageIsError)
                fade.restart()
            else
                fade.stop()
        }
    }
    Component.onCompleted: if (Editor.message !== "" && !Editor.messageIsError) fade.start()
    // Centred, not filling the banner: its height follows the text's, and
    // a layout that filled it would feed that height back into itself.
    RowLayout {
        id: row
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        anchors.leftMargin: 10
        anchors.rightMargin: 4
        Flickable {
            id: scroller
            objectName: "messageScroller"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(label.implicitHeight, banner.longestText)
            contentHeight: label.implicitHeight
            clip: true
            interactive: contentHeight > height
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {
                policy: scroller.interactive ? ScrollBar.AlwaysOn : ScrollBar.AlwaysOff
            }
            Label {
                id: label
                objectName: "messageText"
                width: scroller.width - 10  // room for the scroll bar, whether shown or not
                text: Editor.message
                textFormat: Text.PlainText  // names and paths as they are
                wrapMode: Text.Wrap
            }
        }
        ToolButton {
            objectName: "messageClose"
            Layout.alignment: Qt.AlignTop
            text: "✕"
            // It hides the banner: focus left on it kept the keys from the school.
            focusPolicy: Qt.NoFocus
            onClicked: Editor.clearMessage()
        }
    }
}
