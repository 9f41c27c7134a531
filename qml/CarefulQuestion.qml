// A question whose Yes replaces or removes something of the user's (a video,
// a preset). Yes waits out a double click: centred on the window, it can lie
// under the button that asked, and the second click of a double click on
// Export replaced the video before the question showed. No, the safe answer,
// has the keys, and shows it: after a mouse answer Yes kept them unseen, and
// a Space meant for pause replaced the next video. Only an answer or Escape
// closes it: the second click of a double click, outside it, closed it at
// once, and nothing was saved, deleted or exported, without a word.
import QtQuick
import QtQuick.Controls

Dialog {
    id: question
    modal: true
    anchors.centerIn: Overlay.overlay
    standardButtons: Dialog.Yes | Dialog.No
    closePolicy: Popup.CloseOnEscape
    onOpened: {
        standardButton(Dialog.Yes).enabled = false
        yesWaits.restart()
        standardButton(Dialog.No).forceActiveFocus(Qt.TabFocusReason)
    }
    ReturnPressesFocusedButton { within: question.contentItem }
    Timer {
        id: yesWaits
        interval: Qt.styleHints.mouseDoubleClickInterval
        onTriggered: question.standardButton(Dialog.Yes).enabled = true
    }
}
