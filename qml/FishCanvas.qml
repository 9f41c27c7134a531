// The school as the window and the export show it: the fish view and, with
// trails on, the canvas the strokes pile up on. The offscreen export loads
// this same file, so a frame on disk is drawn by the same code as the screen.
//
// Trails are a feedback loop: `feedback` captures `accumulation` every frame
// into a 16-bit float texture (8 bits never fade fully) and hands the
// previous capture back to `fade`, which draws it dimmed; the fish then add
// their light on top. `exposure` shows the result. Paused, nothing fades and
// nothing is added, and the capture is held as it is.
import QtQuick
import MiroFish

Item {
    id: canvas
    property alias view: fishView
    readonly property bool trails: fishView.trailsOn

    Item {
        id: accumulation
        anchors.fill: parent

        ShaderEffect {
            anchors.fill: parent
            visible: canvas.trails
            blending: false
            property variant source: feedback
            property vector3d keep: fishView.trailKeep
            property real seed: fishView.trailSeed
            fragmentShader: "qrc:/MiroFish/shaders/trail_fade.frag.qsb"
        }
        FishView {
            id: fishView
            objectName: "fishView"
            anchors.fill: parent
            opacity: canvas.trails ? fishView.trailDeposit : 1
        }
    }

    ShaderEffectSource {
        id: feedback
        anchors.fill: parent
        visible: false
        sourceItem: canvas.trails ? accumulation : null
        hideSource: canvas.trails
        // Held (paused), the canvas is drawn again only when asked.
        live: !fishView.trailsHeld
        recursive: true
        format: ShaderEffectSource.RGBA16F
        // One texel per pixel: nearest sampling is exact, and much cheaper
        // than linear in software OpenGL.
        smooth: false
    }
    Connections {
        target: fishView
        function onTrailCanvasStale() { feedback.scheduleUpdate() }
    }

    ShaderEffect {
        anchors.fill: parent
        visible: canvas.trails
        property variant source: feedback
        property real exposure: fishView.trailExposure
        fragmentShader: "qrc:/MiroFish/shaders/trail_expose.frag.qsb"
    }
}
