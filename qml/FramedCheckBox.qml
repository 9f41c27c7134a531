// A check box whose box shows on the dark panels: the Fusion style draws its
// frame a shade darker than the window colour, which here is nearly black,
// and fills it with the base colour of the cards around it.
import QtQuick
import QtQuick.Controls

CheckBox {
    palette.window: "#7d8896"
    palette.base: "#2a3441"
}
