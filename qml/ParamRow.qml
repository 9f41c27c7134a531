// One parameter: label with unit, numeric field, reset, and a slider on the
// registry's scale (or a list for a choice). The tooltip is the description.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Item {
    id: row
    required property int index
    required property string key
    required property string label
    required property string unit
    required property var choices
    required property double value
    required property double defaultValue
    required property double position
    required property string description
    required property string rangeText
    required property bool logScale
    required property bool isDefault
    required property int decimals

    readonly property bool isChoice: choices.length > 0
    function formatted(v) { return isChoice ? choices[Math.round(v)] : v.toFixed(decimals) }

    implicitHeight: column.implicitHeight + 6

    HoverHandler { id: hover }
    ToolTip.visible: hover.hovered
    ToolTip.delay: 700
    ToolTip.text: row.description + "\n" + qsTr("Range: ") + row.rangeText + (row.logScale ? qsTr(" (logarithmic slider)") : "")
                  + "\n" + qsTr("Default: ") + row.formatted(row.defaultValue) + "   key: " + row.key

    ColumnLayout {
        id: column
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.leftMargin: 10
        spacing: 0

        RowLayout {
            Layout.fillWidth: true
            Label {
                Layout.fillWidth: true
                text: row.label + (row.unit !== "" ? "  <font color='#7f8b99'>" + row.unit + "</font>" : "")
                textFormat: Text.StyledText
                elide: Text.ElideRight
            }
            NumberField {
                objectName: "field_" + row.key
                visible: !row.isChoice
                Layout.preferredWidth: 78
                shown: row.value.toFixed(row.decimals)
                subject: Editor.presetOpenings  // a redo bringing a preset in drops the number typed for the one before
                onCommitted: function(value) {
                    Editor.params.setValue(row.index, value)
                    Editor.params.endGesture()
                }
            }
            ToolButton {
                text: "↺"
                enabled: !row.isDefault
                Layout.preferredWidth: 28
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Reset to default (%1)").arg(row.formatted(row.defaultValue))
                onClicked: Editor.params.resetToDefault(row.index)
            }
        }
        UndoableSlider {
            objectName: "slider_" + row.key
            visible: !row.isChoice
            Layout.fillWidth: true
            value: row.position
            onMoved: Editor.params.setPosition(row.index, value)
            onGestureEnded: Editor.params.endGesture()
        }
        ComboBox {
            objectName: "choice_" + row.key
            visible: row.isChoice
            Layout.fillWidth: true
            model: row.choices
            currentIndex: Math.round(row.value)
            onActivated: function(i) { Editor.params.setValue(row.index, i); Editor.params.endGesture() }
        }
    }
}
