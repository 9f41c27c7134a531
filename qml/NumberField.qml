// A field for one number. It takes a decimal point or a decimal comma
// whatever the locale (DoubleValidator took "1,5" for 15, a group separator,
// in English, and "2.5" for 25 in German), and shows the value again once an
// edit ends, even one that left the value as it was (a typed 999 clamped to
// 20 twice over), or is left unfinished (empty, a lone "-"). Only typed text
// is committed: clicking into the field and out again, or Return on the
// value as shown, leaves the value alone (the text shows it rounded).
// While typing, the shown value does not overwrite the text (a morph moves
// it four times a second); Escape puts the value back, and Return gives the
// keys back to the view (Main.qml's giveKeysToView). Not typing, Ctrl+Z
// and Ctrl+Shift+Z undo and redo the editor's edits, as elsewhere (the text
// input took them for its own text).
import QtQuick
import QtQuick.Controls
import MiroFish

TextField {
    id: field
    required property string shown  // the value, as text
    // What the value belongs to. When another takes its place while a number
    // is being typed (a redo brought another preset, or another target into
    // a route's row), the number typed for the one before is dropped:
    // committed, it landed on the other (clamped to its range), a new step
    // that threw the rest of the redo list away.
    property string subject: ""
    onSubjectChanged: if (typed) showValue()
    signal committed(real value)

    horizontalAlignment: TextInput.AlignRight
    selectByMouse: true
    text: shown
    validator: RegularExpressionValidator { regularExpression: /\s*-?(\d+([.,]\d*)?|[.,]\d+)\s*/ }
    property bool typed: false
    readonly property bool commitsTyping: true  // Main.qml's commitTyping
    function showValue() {
        typed = false
        text = Qt.binding(function() { return field.shown })
    }
    onTextEdited: {
        if (typed) return
        typed = true
        text = text  // ends the binding to `shown` until the edit ends
    }
    // Escape while typing belongs to the field, not to the window's shortcut.
    Keys.onShortcutOverride: event => event.accepted = event.key === Qt.Key_Escape && typed
    Keys.onEscapePressed: showValue()
    Keys.onPressed: event => { if (!typed) event.accepted = Editor.undoRedoKey(event.key, event.modifiers) }
    Keys.onReleased: event => {
        // The edit was committed as Return went down.
        if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) Window.window.giveKeysToView()
        event.accepted = false
    }
    onEditingFinished: {
        if (typed) committed(Number(text.trim().replace(",", ".")))
        showValue()
    }
    // Reached with Tab, the number is selected, as a desktop's fields do: the
    // digits typed then replace it (after it, "500" into the fish box made
    // 200500, and a unit's "s" refused every digit).
    onActiveFocusChanged: {
        if (!activeFocus) showValue()
        else if (focusReason === Qt.TabFocusReason || focusReason === Qt.BacktabFocusReason) selectAll()
    }
}
