// An editable whole number with its unit ("300 ms"). It takes any number of
// digits and clamps them to the range: the default validator dropped the
// digit past the range's width, so a typed -1500 became -150.
import QtQuick

TypedSpinBox {
    required property string unit

    textFromValue: function(v) { return v + " " + unit }
    validator: RegularExpressionValidator { regularExpression: new RegExp("\\s*-?\\d{0,9}\\s*(" + unit + ")?\\s*") }
    valueFromText: function(t) {
        const v = parseInt(t)
        return isNaN(v) ? value : v
    }
}
