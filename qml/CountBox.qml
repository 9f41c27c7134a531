// A whole number (a fish count, a size in pixels, frames, seconds) in plain
// digits, the same in every locale and as its tool tip writes it: the
// locale's grouping showed "200,000" in the fish box beside a tip saying
// "200 000", and "1,920" for an export's width. Typed with grouping
// ("120,000", "120 000", "120'000") it still reads as the number; a comma
// that groups no thousands ("2,5" seconds, a decimal comma) leaves the value
// as it was rather than read as 25. A decimal point is taken and the number
// rounded to a whole one: the validator dropped the point, and 0.5 s of
// warm-up was read as 5.
import QtQuick

TypedSpinBox {
    textFromValue: function(v) { return String(v) }
    validator: RegularExpressionValidator { regularExpression: /\s*(\d[\d\s,']{0,11})?(\.\d{0,9})?\s*/ }
    valueFromText: function(t) {
        const digits = t.trim()
        if (/^(\d+\.\d*|\.\d+)$/.test(digits)) return Math.round(parseFloat(digits))
        if (!/^(\d+|\d{1,3}([\s,']\d{3})+)$/.test(digits)) return value
        return parseInt(digits.replace(/[\s,']/g, ""))
    }
}
