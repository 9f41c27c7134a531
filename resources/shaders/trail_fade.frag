#version 440
// The trail canvas's previous frame, faded: colour x keep. The canvas is
// 16-bit float, whose rounding to nearest would swallow fades smaller than
// half a step (slow fades would then never reach black): such fades are
// rounded stochastically instead, so on average every pixel fades exactly.
layout(location = 0) in vec2 qt_TexCoord0;
layout(location = 0) out vec4 fragColor;
layout(std140, binding = 0) uniform buf {
    mat4 qt_Matrix;
    float qt_Opacity;
    vec3 keep;
    float seed;
};
layout(binding = 1) uniform sampler2D source;

float hash(vec2 p) {
    p = fract(p * vec2(0.1031, 0.1030) + seed * 17.0);
    p += dot(p, p.yx + 33.33);
    return fract((p.x + p.y) * p.x);
}

void main() {
    vec3 c = texture(source, qt_TexCoord0).rgb;
    vec3 faded = c * keep;
    // One step of a half float near c (subnormals below 2^-14).
    vec3 halfStep = exp2(max(floor(log2(max(c, vec3(1e-8)))), vec3(-14.0)) - 10.0);
    vec3 lost = c - faded;
    vec3 down = step(vec3(hash(gl_FragCoord.xy)), lost / halfStep);
    vec3 small = step(lost, 0.5 * halfStep);
    faded = mix(faded, c - down * halfStep, small);
    fragColor = vec4(max(faded, vec3(0.0)), 0.0);
}
