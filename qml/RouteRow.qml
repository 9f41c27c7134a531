// One route of the modulation matrix: source (and band), target parameter,
// range, curve, invert and amount, with a bar showing where the route holds
// its parameter right now and by how much it moves it.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

Frame {
    id: row
    required property int index
    required property string source
    required property int band
    required property string target
    required property int targetIndex
    required property string unit
    required property double min
    required property double max
    required property double rangeMin
    required property double rangeMax
    required property string curve
    required property double amount
    required property bool invert
    required property double position
    required property string liveText
    readonly property var routes: Editor.routes
    // The route's from and to are values of its target, in the open preset.
    readonly property string routeSubject: Editor.presetOpenings + "\n" + target
    function decimalsFor(v) { var a = Math.abs(v); return a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3 }

    padding: 6
    background: Rectangle { color: "#161d26"; border.color: "#2a3441"; radius: 3 }

    ColumnLayout {
        anchors.left: parent.left
        anchors.right: parent.right
        spacing: 3

        RowLayout {
            Layout.fillWidth: true
            ComboBox {
                objectName: "routeSource_" + row.index
                Layout.preferredWidth: 96
                model: row.routes.sourceKeys
                currentIndex: model.indexOf(row.source)
                onActivated: row.routes.setField(row.index, "source", currentText)
            }
            CountBox {
                id: bandBox
                objectName: "routeBand_" + row.index
                // Hidden by its width, not by `visible`: Qt 6.4 laid out a box
                // made visible while the Audio tab was hidden (a load, an undo or
                // a morph turned the route to a band) as if still hidden, at the
                // row's left edge over the source box, until the window resized.
                // Hidden, its margin takes back the row's spacing it is given.
                readonly property bool shown: row.source === "band"
                opacity: shown ? 1 : 0
                enabled: shown
                Layout.preferredWidth: shown ? 84 : 0
                Layout.maximumWidth: Layout.preferredWidth
                Layout.rightMargin: shown ? 0 : -(parent as RowLayout).spacing
                from: 0
                to: Editor.audio.bandLabels.length - 1
                value: row.band
                onValueModified: row.routes.setField(row.index, "band", value)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Log-spaced band from %1 Hz").arg(Editor.audio.bandLabels[value])
            }
            Label { text: "→"; color: "#9aa6b2" }
            ComboBox {
                objectName: "routeTarget_" + row.index
                Layout.fillWidth: true
                model: row.routes.targetLabels
                currentIndex: row.targetIndex
                onActivated: function(i) { row.routes.setField(row.index, "target", row.routes.targetKeys[i]) }
            }
            ToolButton {
                objectName: "routeRemove_" + row.index
                text: "✕"
                onClicked: row.routes.removeRoute(row.index)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Remove this route")
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Label { text: qsTr("from"); color: "#9aa6b2"; font.pixelSize: 11 }
            NumberField {
                objectName: "routeMin_" + row.index
                Layout.preferredWidth: 62
                shown: row.min.toFixed(row.decimalsFor(row.min))
                subject: row.routeSubject
                onCommitted: function(value) { row.routes.setField(row.index, "min", value) }
                ToolTip.visible: hovered
                // Inverted, the ends swap (modulation.cpp's routePosition).
                ToolTip.text: (row.invert ? qsTr("The value when the source is at its loudest (inverted); range %1 to %2 %3")
                                          : qsTr("The value when the source is quiet; range %1 to %2 %3"))
                              .arg(row.rangeMin).arg(row.rangeMax).arg(row.unit)
            }
            Label { text: qsTr("to"); color: "#9aa6b2"; font.pixelSize: 11 }
            NumberField {
                objectName: "routeMax_" + row.index
                Layout.preferredWidth: 62
                shown: row.max.toFixed(row.decimalsFor(row.max))
                subject: row.routeSubject
                onCommitted: function(value) { row.routes.setField(row.index, "max", value) }
                ToolTip.visible: hovered
                ToolTip.text: (row.invert ? qsTr("The value when the source is quiet (inverted); range %1 to %2 %3")
                                          : qsTr("The value when the source is at its loudest; range %1 to %2 %3"))
                              .arg(row.rangeMin).arg(row.rangeMax).arg(row.unit)
            }
            Label { text: row.unit; color: "#7f8b99"; font.pixelSize: 11 }
            Item { Layout.fillWidth: true }
            ComboBox {
                objectName: "routeCurve_" + row.index
                Layout.preferredWidth: 78
                model: row.routes.curveKeys
                currentIndex: model.indexOf(row.curve)
                onActivated: row.routes.setField(row.index, "curve", currentText)
                ToolTip.visible: hovered
                ToolTip.text: qsTr("log: -60 dB to 0 dB of the source sweep min to max (the default); linear; exp: only loud moments move it")
            }
        }

        RowLayout {
            Layout.fillWidth: true
            FramedCheckBox {
                objectName: "routeInvert_" + row.index
                text: qsTr("invert")
                checked: row.invert
                onToggled: row.routes.setField(row.index, "invert", checked)
            }
            Label { text: qsTr("amount"); color: "#9aa6b2"; font.pixelSize: 11 }
            UndoableSlider {
                objectName: "routeAmount_" + row.index
                Layout.fillWidth: true
                value: row.amount
                onMoved: row.routes.setField(row.index, "amount", value)
                onGestureEnded: row.routes.endGesture()
            }
            Label { text: Math.round(row.amount * 100) + "%"; Layout.preferredWidth: 34; font.pixelSize: 11 }
        }

        // Live: where between min and max the route holds its parameter now.
        RowLayout {
            Layout.fillWidth: true
            Rectangle {
                Layout.fillWidth: true
                height: 6
                color: "#121820"
                border.color: "#2a3441"
                Rectangle {
                    objectName: "routeLive_" + row.index
                    x: 1
                    y: 1
                    height: parent.height - 2
                    width: Math.max(0, Math.min(1, row.position)) * (parent.width - 2)
                    color: "#f0b35a"
                }
            }
            Label {
                id: liveLabel
                objectName: "routeLiveText_" + row.index
                text: row.liveText + " " + row.unit
                font.pixelSize: 11
                color: Editor.audio.driving ? "#f0b35a" : "#7f8b99"
                // As wide as the widest reading, so that the bar keeps its
                // length while the value changes ("+0.060 x maxForce" did
                // not fit in 80 px and covered the bar).
                Layout.preferredWidth: Math.max(80, widest.advanceWidth + 4)
                horizontalAlignment: Text.AlignRight
                TextMetrics { id: widest; font: liveLabel.font; text: "+00.000 " + row.unit }
            }
        }
    }
}
