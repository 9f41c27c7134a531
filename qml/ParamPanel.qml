// Every registry parameter, grouped; the rows come from Editor.params.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

ColumnLayout {
    spacing: 0

    ListView {
        id: list
        objectName: "paramList"
        Layout.fillWidth: true
        Layout.fillHeight: true
        clip: true
        model: Editor.params
        cacheBuffer: 4000
        // Up and Down in a field or on a slider reached the list, which moved
        // its current row, took the keys from the field (a digit typed next
        // chose a tool) and scrolled the field away.
        keyNavigationEnabled: false
        ScrollBar.vertical: ScrollBar { policy: ScrollBar.AlwaysOn }
        section.property: "group"
        section.delegate: Label {
            required property string section
            width: ListView.view.width
            text: section
            font.bold: true
            topPadding: 12
            bottomPadding: 2
            leftPadding: 10
            color: "#8fc7ee"
        }
        delegate: ParamRow { width: ListView.view.width - 14 }
    }
    Button {
        Layout.fillWidth: true
        Layout.margins: 6
        text: qsTr("Reset all to defaults")
        onClicked: Editor.resetAllParams()
    }
}
