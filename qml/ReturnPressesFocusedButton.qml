// Return on a question's focused answer presses it, as on a desktop: Qt
// Quick's buttons take Space alone, and Return did nothing in "Unsaved
// changes", "Export running" or a Replace / Delete question. Declared inside
// the dialog: a modal dialog turns the window's shortcuts off.
import QtQuick

Shortcut {
    required property Item within  // an item of the dialog
    sequences: ["Return", "Enter"]
    enabled: within.visible  // the dialog open: closed, it took Return from the name field
    onActivated: {
        const item = within.Window.activeFocusItem
        if (item && typeof item.clicked === "function" && item.enabled && item.visible) item.clicked()
    }
}
