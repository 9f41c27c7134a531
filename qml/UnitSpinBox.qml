// An editable whole number with its unit ("300 ms"). It takes any number of
// digits and clamps them to the range: the default validator dropped the
// digit past the range's width, so a typed -1500 became -150. What is typed
// is read as TypedSpinBox's wholeFromText reads it.
import QtQuick

TypedSpinBox {
    required property string unit

    textFromValue: function(v) { return v + " " + unit }
    validator: RegularExpressionValidator {
        regularExpression: new RegExp("\\s*-?[\\d\\s,'.]{0,16}\\s*(" + unit + ")?\\s*")
    }
    valueFromText: function(t) {
        const typed = t.trim()
        const v = wholeFromText(typed.endsWith(unit) ? typed.slice(0, typed.length - unit.length) : typed)
        return isNaN(v) ? value : v
    }
}
