#version 440
// Shows the trail canvas's light: 1 - exp(-exposure x light) saturates
// smoothly instead of clipping. Premultiplied, as bright as it is opaque, so
// the strokes glow over the water (or over nothing, for a PNG with alpha).
layout(location = 0) in vec2 qt_TexCoord0;
layout(location = 0) out vec4 fragColor;
layout(std140, binding = 0) uniform buf {
    mat4 qt_Matrix;
    float qt_Opacity;
    float exposure;
};
layout(binding = 1) uniform sampler2D source;

void main() {
    vec3 light = max(texture(source, qt_TexCoord0).rgb, vec3(0.0));
    vec3 shown = vec3(1.0) - exp(-exposure * light);
    float alpha = max(shown.r, max(shown.g, shown.b));
    fragColor = vec4(shown, alpha) * qt_Opacity;
}
