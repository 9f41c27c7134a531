// A whole number (a fish count, a size in pixels, frames, seconds) in plain
// digits, the same in every locale and as its tool tip writes it: the
// locale's grouping showed "200,000" in the fish box beside a tip saying
// "200 000", and "1,920" for an export's width. What is typed is read as
// TypedSpinBox's wholeFromText reads it.
import QtQuick

TypedSpinBox {
    textFromValue: function(v) { return String(v) }
    validator: RegularExpressionValidator { regularExpression: /\s*[\d\s,'.]{0,16}/ }
    valueFromText: function(t) {
        const v = wholeFromText(t)
        return isNaN(v) ? value : v
    }
}
