// The preset browser: shipped and user presets with their descriptions;
// load, morph, save, save as, rename and delete (user presets only).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import MiroFish

ColumnLayout {
    id: panel
    spacing: 6
    function focusName() { nameField.forceActiveFocus(); nameField.selectAll() }
    // Ctrl+Shift+S: saves as the name typed; with none, asks for one.
    function saveAsOrAskName() {
        if (nameField.text.trim() !== "") saveAs(true)
        else focusName()
    }
    // A name you already use asks before it replaces that preset. Saved from
    // the keyboard (Return in the name field), the keys go back to the
    // school, as after a number confirmed: P, T and Space were typed into
    // the name, and Escape, clearing it, then left full screen.
    function saveAs(fromKeyboard) {
        if (Editor.presetNameTaken(nameField.text)) {
            confirmReplace.name = nameField.text.trim()
            confirmReplace.replaced = Editor.presetTakingName(nameField.text)
            confirmReplace.fromKeyboard = fromKeyboard === true
            confirmReplace.open()
        } else if (Editor.savePresetAs(nameField.text) && fromKeyboard === true) {
            Window.window.giveKeysToView()
        }
    }
    readonly property bool currentIsUser: list.currentItem !== null && list.currentItem.user
    readonly property real morphTime: morphSeconds.value  // PgDown and PgUp morph over it

    // The open preset: its name on one line (cut short, whole in a tooltip),
    // as typed (plain text: a name may hold "<" or "&"), then its state.
    RowLayout {
        Layout.fillWidth: true
        Layout.margins: 8
        spacing: 8
        Label {
            objectName: "openPresetName"
            Layout.fillWidth: true
            Layout.minimumWidth: 40
            textFormat: Text.PlainText
            elide: Text.ElideRight
            font.bold: true
            text: Editor.presetName
            HoverHandler { id: nameHover }
            ToolTip.visible: nameHover.hovered && truncated
            ToolTip.text: Editor.presetName
        }
        // Empty rather than hidden: a label shown while the tab was hidden
        // kept the row's old layout (Qt 6.4), drawn over the name.
        Label {
            objectName: "openPresetState"
            color: "#f0b35a"
            text: Editor.modified ? "● modified" : ""
        }
        // "(from NAME.json)" may be long: cut short in its middle, whole in a
        // tooltip; at its full width it pushed the side panel off the window.
        Label {
            objectName: "openPresetOrigin"
            Layout.maximumWidth: 160
            color: "#7f8b99"
            textFormat: Text.PlainText
            elide: Text.ElideMiddle
            text: Editor.presetOrigin !== "" ? "(" + Editor.presetOrigin + ")" : ""
            HoverHandler { id: originHover }
            ToolTip.visible: originHover.hovered && truncated
            ToolTip.text: text
        }
    }

    ListView {
        id: list
        objectName: "presetList"
        Layout.fillWidth: true
        Layout.fillHeight: true
        clip: true
        model: Editor.presets
        ScrollBar.vertical: ScrollBar {}
        // Every entry made and laid out, not only those near the view: the
        // place of one far down was guessed from the heights of those made
        // (descriptions wrap to one to three lines, the selected one's in
        // full), and the list was left a dozen rows above the open preset.
        // A few hundred small entries cost little.
        cacheBuffer: 100000
        // The loaded preset is the one selected, after a load or a save and
        // after the list is re-read; a click selects another to load.
        function showLoaded() {
            currentIndex = Editor.presetRow
            reveal()
        }
        function reveal() {
            revealing = true
            settling.restart()
            Qt.callLater(keepCurrentInView)
        }
        function keepCurrentInView() { if (currentIndex >= 0) positionViewAtIndex(currentIndex, ListView.Contain) }
        // Re-read or first shown, the entries first get the height of their
        // name alone and then, laid out, that of their description too: the
        // places the view scrolled to moved away under it. So for a moment after reveal,
        // each change of height scrolls to the selected entry again (not
        // later: it would pull the list back while the user scrolls it).
        property bool revealing: false
        Timer { id: settling; interval: 500; onTriggered: list.revealing = false }
        onContentHeightChanged: if (revealing) Qt.callLater(keepCurrentInView)
        onMovementStarted: revealing = false
        // The entry selected shows its whole description: in view with it.
        onCurrentIndexChanged: Qt.callLater(keepCurrentInView)
        Component.onCompleted: showLoaded()
        // Laid out only when its tab shows: the selected entry is scrolled to
        // then, until the entries have their heights (the editor opens on
        // another tab, and the list was left at its top).
        onVisibleChanged: if (visible) reveal()
        onHeightChanged: Qt.callLater(keepCurrentInView)
        Connections {
            target: Editor
            function onPresetChanged() { list.showLoaded() }
            function onPresetSelected(row) { list.currentIndex = row }
        }
        Connections {
            target: Editor.presets
            function onModelReset() { list.showLoaded() }
        }
        delegate: ItemDelegate {
            id: entry
            required property int index
            required property string name
            required property string description
            required property bool user
            width: ListView.view.width
            highlighted: ListView.isCurrentItem
            onClicked: list.currentIndex = index
            // The entry the first click selected: that click resized the
            // entries above, and the second may land on a neighbour.
            onDoubleClicked: Editor.loadPreset(list.currentIndex)
            contentItem: Column {
                spacing: 2
                RowLayout {
                    width: parent.width
                    // A long name is cut short, never the mark after it.
                    Label { text: entry.name; textFormat: Text.PlainText; font.bold: true; elide: Text.ElideRight; Layout.fillWidth: true }
                    Label { visible: entry.user; text: qsTr("· yours"); font.bold: true }
                }
                // Three lines in the list; the selected entry's in full (its
                // last sentences were cut, with no way to read them).
                Label {
                    objectName: "presetDescription"
                    text: entry.description
                    textFormat: Text.PlainText
                    width: parent.width
                    wrapMode: Text.Wrap
                    color: entry.highlighted ? "#eef5fb" : "#9aa6b2"
                    font.pixelSize: 11
                    maximumLineCount: entry.highlighted ? 1000 : 3
                    elide: Text.ElideRight
                }
            }
        }
    }

    GridLayout {
        Layout.fillWidth: true
        Layout.margins: 6
        columns: 3
        Button {
            text: qsTr("Load")
            enabled: list.currentIndex >= 0
            Layout.fillWidth: true
            onClicked: Editor.loadPreset(list.currentIndex)
        }
        Button {
            text: qsTr("Morph in")
            enabled: list.currentIndex >= 0
            Layout.fillWidth: true
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Glide every parameter to this preset over the chosen time")
            onClicked: Editor.morphToPreset(list.currentIndex, morphSeconds.value)
        }
        UnitSpinBox {
            id: morphSeconds
            objectName: "presetMorphSeconds"
            typingIsEdit: false
            unit: "s"
            from: 0
            to: 120
            value: 5
            Layout.preferredWidth: 100
        }
        TextField {
            id: nameField
            objectName: "presetName"
            Layout.columnSpan: 3
            Layout.fillWidth: true
            placeholderText: qsTr("Name for Save as / Rename")
            selectByMouse: true
            onAccepted: panel.saveAs(true)
            // Escape drops a name being typed, rather than reaching the
            // window (leaving full screen, letting the selected fish go).
            Keys.onShortcutOverride: event => event.accepted = event.key === Qt.Key_Escape && text !== ""
            Keys.onEscapePressed: clear()
        }
        Button {
            text: qsTr("Save")
            enabled: Editor.presetIsUser && Editor.modified
            Layout.fillWidth: true
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Overwrite your preset (Ctrl+S)")
            onClicked: Editor.savePreset()
        }
        Button {
            objectName: "presetSaveAs"
            text: qsTr("Save as")
            enabled: nameField.text.trim() !== ""
            Layout.fillWidth: true
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Save as a new preset of yours (Ctrl+Shift+S)")
            onClicked: panel.saveAs()
        }
        Button {
            text: qsTr("Rename")
            enabled: panel.currentIsUser && nameField.text.trim() !== ""
            Layout.fillWidth: true
            onClicked: Editor.renamePreset(list.currentIndex, nameField.text)
        }
        Button {
            text: qsTr("Delete")
            enabled: panel.currentIsUser
            Layout.columnSpan: 3
            Layout.fillWidth: true
            onClicked: confirmDelete.open()
        }
    }

    CarefulQuestion {
        id: confirmReplace
        objectName: "confirmReplace"
        property string name
        property string replaced
        title: qsTr("Replace preset")
        width: 360
        Label {
            width: parent.width
            wrapMode: Text.Wrap
            textFormat: Text.PlainText  // the names as typed
            // The preset replaced by its own name ("Quit Test" for "quit test" typed).
            text: qsTr("You already have a preset called '%1'.").arg(confirmReplace.replaced) + " "
                  + qsTr("Replace it with '%1'?").arg(confirmReplace.name)
        }
        property bool fromKeyboard: false
        // The keys go back to the view once the question has closed: it gives
        // them back to the name field as it closes, after this.
        property bool saved: false
        onAccepted: saved = Editor.savePresetAs(name, true)
        onClosed: {
            if (saved && fromKeyboard) panel.Window.window.giveKeysToView()
            saved = false
        }
    }

    CarefulQuestion {
        id: confirmDelete
        objectName: "confirmDelete"
        title: qsTr("Delete preset")
        width: 360
        Label {
            width: parent.width
            wrapMode: Text.Wrap
            textFormat: Text.PlainText  // the name as typed
            text: qsTr("Delete '%1'? This removes its file.").arg(list.currentItem ? list.currentItem.name : "")
        }
        onAccepted: Editor.deletePreset(list.currentIndex)
    }
}
