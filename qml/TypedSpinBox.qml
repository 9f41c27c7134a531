// An editable spin box whose text shows its value again once an edit ends.
// SpinBox rewrites its text only when the value changes: a typed 500000 in a
// box at its 200 000 maximum, clamped to the value it already had, or text
// that is no number, stayed in the box while the value did not move.
// Escape puts the value back over text being typed. Not typing, Ctrl+Z and
// Ctrl+Shift+Z undo and redo the editor's edits, as in a number field, where
// `undoesEdits` (not in a dialog, which has no edits of its own to undo).
import QtQuick
import QtQuick.Controls
import MiroFish

SpinBox {
    id: box
    editable: true
    readonly property bool commitsTyping: true  // Main.qml's commitTyping
    property bool undoesEdits: true
    // False where the value is no step of the editor's history (the fish
    // count, the latency, a morph's time): the tool bar's undo then drops
    // the text being typed (Main.qml's dropTyping) instead of committing it
    // and taking back an older edit.
    property bool typingIsEdit: true
    readonly property bool typing: contentItem.text !== displayText

    // The Fusion style's text input, with the undo keys taken first: its own
    // undo put the text before the last edit back in the box while the value
    // stayed, to be committed when the box lost focus.
    contentItem: TextInput {
        z: 2
        text: box.displayText
        font: box.font
        color: box.palette.text
        selectionColor: box.palette.highlight
        selectedTextColor: box.palette.highlightedText
        horizontalAlignment: Qt.AlignHCenter
        verticalAlignment: Qt.AlignVCenter
        readOnly: !box.editable
        validator: box.validator
        inputMethodHints: box.inputMethodHints
        Keys.onPressed: event => {
            if (event.key === Qt.Key_Up || event.key === Qt.Key_Down) box.takeTyped()
            else if (box.undoesEdits && text === box.displayText)
                event.accepted = Editor.undoRedoKey(event.key, event.modifiers)
        }
    }

    function showValue() { box.contentItem.text = Qt.binding(() => box.displayText) }
    // Reached with Tab, the text is selected, as a desktop's fields do: the
    // digits typed then replace it (after it, "500" into the fish box made
    // 200500, and a unit's "s" refused every digit).
    onActiveFocusChanged: if (activeFocus && (focusReason === Qt.TabFocusReason || focusReason === Qt.BacktabFocusReason))
                              contentItem.selectAll()

    // Whether a point may group thousands: in a box of counts that reach a
    // thousand (fish, pixels, frames), not of seconds ("1.500" s of warm-up
    // read as 25 minutes).
    property bool pointGroups: Math.max(Math.abs(from), Math.abs(to)) >= 1000
    // A whole number as typed (its unit already taken off): plain digits;
    // thousands grouped by one kind of space, comma, apostrophe or point
    // ("120,000", "1.920"; a point only where pointGroups);
    // or a decimal point, the number rounded ("0.5" is 1, "1,234.5" is 1235:
    // the point was dropped as it was typed, and 0.5 s became 5 s). A comma
    // that groups no thousands ("2,5", "0,500", a decimal comma) is unclear:
    // NaN, and the value stays as it was rather than read as 25.
    // Clamped to the box's range here: SpinBox turns the number into a
    // 32-bit int first, and 3000000000 fish wrapped round to 1.
    function wholeFromText(t) {
        const v = wholeReadFrom(t)
        return isNaN(v) ? v : Math.max(Math.min(from, to), Math.min(Math.max(from, to), v))
    }
    function wholeReadFrom(t) {
        const s = t.trim()
        const sign = s.startsWith("-") ? -1 : 1
        const d = sign < 0 ? s.slice(1).trim() : s
        if (/^\d+$/.test(d)) return sign * parseInt(d)
        const grouped = /^[1-9]\d{0,2}([\s,'.])\d{3}(\1\d{3})*$/.exec(d)
        if (grouped && (grouped[1] !== "." || box.pointGroups))
            return sign * parseInt(d.replace(/[\s,'.]/g, ""))
        if (/^([1-9]\d{0,2}([\s,'])\d{3}(\2\d{3})*|\d*)\.\d*$/.test(d) && d !== ".")
            return sign * Math.round(parseFloat(d.replace(/[\s,']/g, "")))
        return NaN
    }
    // A step (Up, Down, the arrows beside the box) goes on from the number
    // typed: it went on from the value before, and the typed number was lost
    // (300 ms, then Up, gave 5 ms). The box takes the typed text the way it
    // does when it loses the focus, which keeps its value's binding (an
    // assignment to value cut it), and the focus comes straight back.
    function takeTyped() {
        if (!typing) return
        box.focus = false
        box.forceActiveFocus()
    }
    up.onPressedChanged: if (up.pressed) takeTyped()
    down.onPressedChanged: if (down.pressed) takeTyped()
    // Escape puts the value back over text being typed, rather than reaching
    // the window (leaving full screen, letting the selected fish go).
    Keys.onShortcutOverride: event => event.accepted = event.key === Qt.Key_Escape && box.contentItem.text !== box.displayText
    Keys.onEscapePressed: showValue()
    // SpinBox takes the typed text when Return is released (after these
    // handlers) or when the field loses focus: the text is shown again later.
    // A box of the window's own (undoesEdits) gives the keys back to the view
    // (Main.qml's giveKeysToView), which takes the text as the focus leaves;
    // at once, not later, when the next keys may already be typed. A
    // dialog's box keeps them.
    Keys.onReleased: event => {
        if (event.key === Qt.Key_Return || event.key === Qt.Key_Enter) {
            Qt.callLater(box.showValue)
            if (box.undoesEdits) Window.window.giveKeysToView()
        }
        event.accepted = false
    }
    Connections {
        target: box.contentItem
        function onActiveFocusChanged() { if (!box.contentItem.activeFocus) Qt.callLater(box.showValue) }
    }
}
