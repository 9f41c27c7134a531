// An editable whole number with its unit ("300 ms"). It takes any number of
// digits and clamps them to the range: the default validator dropped the
// digit past the range's width, so a typed -1500 became -150. A decimal
// point or comma is taken and the number rounded to a whole one: dropped, it
// made a morph over 0.5 s one over 5 s.
import QtQuick

TypedSpinBox {
    required property string unit

    textFromValue: function(v) { return v + " " + unit }
    validator: RegularExpressionValidator {
        regularExpression: new RegExp("\\s*-?\\d{0,9}([.,]\\d{0,9})?\\s*(" + unit + ")?\\s*")
    }
    valueFromText: function(t) {
        const v = Math.round(parseFloat(t.trim().replace(",", ".")))
        return isNaN(v) ? value : v
    }
}
