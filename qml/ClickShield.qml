// Under a panel drawn over the view: takes the clicks on it, which went
// through to the view (placing an object hidden under the stats, letting the
// selected fish go from its own panel). Put first, under the panel's controls.
import QtQuick

MouseArea {
    anchors.fill: parent
    acceptedButtons: Qt.AllButtons
}
