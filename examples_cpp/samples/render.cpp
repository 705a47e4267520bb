// render.cpp: see render.hpp.
#include "render.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace samples {

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr int kShadowSize = 2048;

// The sun: up and to the right of most scenes' cameras.
const Vec3 kToSun = normalize(v3(0.45f, 1.0f, 0.35f));

const char* kMainVs = R"(#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;
uniform mat4 u_view_proj;
uniform mat4 u_light_view_proj;
out vec3 v_pos;
out vec3 v_normal;
out vec3 v_color;
out vec4 v_light;
void main() {
    v_pos = a_pos;
    v_normal = a_normal;
    v_color = a_color;
    v_light = u_light_view_proj * vec4(a_pos, 1.0);
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}
)";

// Colours arrive in sRGB; lighting is done in linear space.
const char* kMainFs = R"(#version 330 core
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_color;
in vec4 v_light;
uniform vec3 u_eye;
uniform vec3 u_to_sun;
uniform vec3 u_target;
uniform int u_grid;
uniform sampler2DShadow u_shadow;
uniform float u_texel;
out vec4 o_color;

float shadow() {
    vec3 p = v_light.xyz / v_light.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
    float s = 0.0;
    for (int i = -1; i <= 1; ++i)
        for (int j = -1; j <= 1; ++j) s += texture(u_shadow, vec3(p.xy + vec2(i, j) * u_texel, p.z - 0.0015));
    return s / 9.0;
}

void main() {
    vec3 n = normalize(v_normal);
    vec3 to_eye = normalize(u_eye - v_pos);
    // Double-sided: light the side facing the camera (cloth, open meshes).
    if (dot(n, to_eye) < 0.0) n = -n;
    vec3 base = pow(v_color, vec3(2.2));
    if (u_grid == 1) {
        vec2 g = v_pos.xz;
        vec2 w = fwidth(g);
        vec2 minor = abs(fract(g * 2.0 - 0.5) - 0.5) / (w * 2.0);
        vec2 major = abs(fract(g - 0.5) - 0.5) / w;
        float line_minor = 1.0 - min(min(minor.x, minor.y), 1.0);
        float line_major = 1.0 - min(min(major.x, major.y) * 0.7, 1.0);
        float fade = clamp(1.0 - length(v_pos.xz - u_target.xz) / 14.0, 0.0, 1.0);
        base = mix(base, base * 0.72, line_minor * 0.5 * fade);
        base = mix(base, base * 0.55, line_major * fade);
    }
    float lit = max(dot(n, u_to_sun), 0.0) * shadow();
    vec3 sky = vec3(0.55, 0.65, 0.8), bounce = vec3(0.35, 0.3, 0.25);
    vec3 ambient = mix(bounce, sky, n.y * 0.5 + 0.5) * 0.55;
    vec3 h = normalize(u_to_sun + to_eye);
    float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * lit;
    vec3 color = base * (ambient + vec3(1.0, 0.96, 0.9) * 1.35 * lit) + vec3(spec);
    // Fog towards the sky with distance.
    float d = length(u_eye - v_pos);
    color = mix(color, pow(vec3(0.74, 0.8, 0.87), vec3(2.2)), clamp((d - 12.0) / 40.0, 0.0, 0.85));
    o_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
)";

const char* kDepthVs = R"(#version 330 core
layout(location = 0) in vec3 a_pos;
uniform mat4 u_light_view_proj;
void main() { gl_Position = u_light_view_proj * vec4(a_pos, 1.0); }
)";

const char* kDepthFs = R"(#version 330 core
void main() {}
)";

const char* kLineVs = R"(#version 330 core
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_color;
uniform mat4 u_view_proj;
out vec3 v_color;
void main() {
    v_color = a_color;
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}
)";

const char* kLineFs = R"(#version 330 core
in vec3 v_color;
out vec4 o_color;
void main() { o_color = vec4(v_color, 1.0); }
)";

/// Whether a shader compiled or a program linked; prints its log when not.
template <class GetIv, class GetLog>
bool succeeded(GLuint object, GLenum status, GetIv get_iv, GetLog get_log, const char* what) {
    GLint ok = 0;
    get_iv(object, status, &ok);
    if (ok) return true;
    char log[2048];
    get_log(object, sizeof log, nullptr, log);
    std::fprintf(stderr, "%s: %s\n", what, log);
    return false;
}

GLuint compile(GLenum kind, const char* source) {
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &source, nullptr);
    glCompileShader(s);
    return succeeded(s, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog, "shader") ? s : 0;
}

GLuint link(const char* vs, const char* fs) {
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    if (!v || !f) return 0;
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    return succeeded(p, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, "program") ? p : 0;
}

void vertex_layout(GLuint vao, GLuint vbo) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    for (GLuint i = 0; i < 3; ++i) {
        glEnableVertexAttribArray(i);
        glVertexAttribPointer(i, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex), reinterpret_cast<void*>(12 * i));
    }
}

void uniform(GLuint program, const char* name, const Mat4& m) {
    glUniformMatrix4fv(glGetUniformLocation(program, name), 1, GL_FALSE, m.m);
}
void uniform(GLuint program, const char* name, Vec3 v) {
    glUniform3f(glGetUniformLocation(program, name), v.x, v.y, v.z);
}

/// Two unit vectors perpendicular to unit `d` and to each other.
void basis(Vec3 d, Vec3& u, Vec3& w) {
    u = normalize(std::fabs(d.y) < 0.9f ? cross(d, v3(0, 1, 0)) : cross(d, v3(1, 0, 0)));
    w = cross(d, u);
}

}  // namespace

void Geometry::triangle(Vec3 a, Vec3 b, Vec3 c, Vec3 n, Color color) {
    vertex(a, n, color);
    vertex(b, n, color);
    vertex(c, n, color);
}

void Geometry::box(const Transform& t, Vec3 half, Color color) {
    const Vec3 axes[3] = {rotate(t.rotation, v3(1, 0, 0)), rotate(t.rotation, v3(0, 1, 0)),
                          rotate(t.rotation, v3(0, 0, 1))};
    const float h[3] = {half.x, half.y, half.z};
    for (int axis = 0; axis < 3; ++axis) {
        const Vec3 u = axes[(axis + 1) % 3] * h[(axis + 1) % 3], w = axes[(axis + 2) % 3] * h[(axis + 2) % 3];
        for (float side : {-1.0f, 1.0f}) {
            const Vec3 n = axes[axis] * side, c = t.position + n * h[axis];
            const Vec3 p00 = c - u - w, p10 = c + u - w, p11 = c + u + w, p01 = c - u + w;
            triangle(p00, p10, p11, n, color);
            triangle(p00, p11, p01, n, color);
        }
    }
}

void Geometry::capsule(Vec3 a, Vec3 b, float radius, Color color, int sides, int rings) {
    const Vec3 axis = b - a;
    const Vec3 d = length(axis) > 1e-6f ? normalize(axis) : v3(0, 1, 0);
    Vec3 u, w;
    basis(d, u, w);
    // Rings of latitude from the pole at a's end to the pole at b's end.
    struct Ring {
        Vec3 center;
        float phi;
    };
    std::vector<Ring> lat;
    for (int j = 0; j <= rings; ++j) lat.push_back({a, -0.5f * kPi + 0.5f * kPi * j / rings});
    for (int j = 0; j <= rings; ++j) lat.push_back({b, 0.5f * kPi * j / rings});
    auto point = [&](const Ring& r, int k, Vec3& n) {
        const float theta = 2.0f * kPi * k / sides;
        n = (u * std::cos(theta) + w * std::sin(theta)) * std::cos(r.phi) + d * std::sin(r.phi);
        return r.center + n * radius;
    };
    for (std::size_t j = 0; j + 1 < lat.size(); ++j) {
        for (int k = 0; k < sides; ++k) {
            Vec3 n00, n10, n01, n11;
            const Vec3 p00 = point(lat[j], k, n00), p10 = point(lat[j], k + 1, n10);
            const Vec3 p01 = point(lat[j + 1], k, n01), p11 = point(lat[j + 1], k + 1, n11);
            vertex(p00, n00, color), vertex(p10, n10, color), vertex(p11, n11, color);
            vertex(p00, n00, color), vertex(p11, n11, color), vertex(p01, n01, color);
        }
    }
}

void Geometry::indexed(const Vertex* vertices, const std::uint32_t* indices, std::size_t index_count) {
    for (std::size_t i = 0; i < index_count; ++i) triangles.push_back(vertices[indices[i]]);
}

void Geometry::line(Vec3 a, Vec3 b, Color c) {
    lines.push_back({{a.x, a.y, a.z}, {c.r, c.g, c.b}});
    lines.push_back({{b.x, b.y, b.z}, {c.r, c.g, c.b}});
}

void Geometry::wire_box(Vec3 lo, Vec3 hi, Color c) {
    auto corner = [&](int i) { return v3(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z); };
    for (int i = 0; i < 8; ++i)
        for (int bit : {1, 2, 4})
            if (!(i & bit)) line(corner(i), corner(i | bit), c);
}

bool Renderer::init() {
    program_ = link(kMainVs, kMainFs);
    depth_program_ = link(kDepthVs, kDepthFs);
    line_program_ = link(kLineVs, kLineFs);
    if (!program_ || !depth_program_ || !line_program_) return false;
    GLuint vaos[4], vbos[4];
    glGenVertexArrays(4, vaos);
    glGenBuffers(4, vbos);
    static_vao_ = vaos[0], dynamic_vao_ = vaos[1], ground_vao_ = vaos[2], line_vao_ = vaos[3];
    static_vbo_ = vbos[0], dynamic_vbo_ = vbos[1], ground_vbo_ = vbos[2], line_vbo_ = vbos[3];
    vertex_layout(static_vao_, static_vbo_);
    vertex_layout(dynamic_vao_, dynamic_vbo_);
    vertex_layout(ground_vao_, ground_vbo_);
    glBindVertexArray(line_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
    for (GLuint i = 0; i < 2; ++i) {
        glEnableVertexAttribArray(i);
        glVertexAttribPointer(i, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), reinterpret_cast<void*>(12 * i));
    }
    glBindVertexArray(0);

    glGenTextures(1, &shadow_tex_);
    glBindTexture(GL_TEXTURE_2D, shadow_tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, kShadowSize, kShadowSize, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
                 nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    glGenFramebuffers(1, &shadow_fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadow_tex_, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!complete) std::fprintf(stderr, "the shadow map's framebuffer is incomplete\n");
    return complete;
}

void Renderer::upload(GLuint vbo, const std::vector<Vertex>& v, bool stream) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(v.size() * sizeof(Vertex)), v.empty() ? nullptr : v.data(),
                 stream ? GL_STREAM_DRAW : GL_STATIC_DRAW);
}

void Renderer::draw(const View& view, float ground, float shadow_extent, const Geometry& statics,
                    bool statics_changed, const Geometry& dynamic) {
    GLint target_fbo = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target_fbo);
    if (statics_changed) {
        upload(static_vbo_, statics.triangles, false);
        static_count_ = static_cast<GLsizei>(statics.triangles.size());
    }
    if (ground != ground_at_) {
        // A 120 m square; its grid lines are drawn by the fragment shader.
        Geometry g;
        const float s = 60.0f;
        g.triangle(v3(-s, ground, -s), v3(s, ground, s), v3(s, ground, -s), v3(0, 1, 0), hex(0xc9c4b8));
        g.triangle(v3(-s, ground, -s), v3(-s, ground, s), v3(s, ground, s), v3(0, 1, 0), hex(0xc9c4b8));
        upload(ground_vbo_, g.triangles, false);
        ground_at_ = ground;
    }
    upload(dynamic_vbo_, dynamic.triangles, true);
    const GLsizei dynamic_count = static_cast<GLsizei>(dynamic.triangles.size());

    // The sun's view: an orthographic box around the camera's target.
    const Vec3 center = view.target;
    const Mat4 light_view = look_at(center + kToSun * 40.0f, center, v3(0, 1, 0));
    const Mat4 light_vp = orthographic(shadow_extent, shadow_extent, 1.0f, 80.0f) * light_view;

    glEnable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
    glViewport(0, 0, kShadowSize, kShadowSize);
    glClear(GL_DEPTH_BUFFER_BIT);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    glUseProgram(depth_program_);
    uniform(depth_program_, "u_light_view_proj", light_vp);
    glBindVertexArray(static_vao_);
    glDrawArrays(GL_TRIANGLES, 0, static_count_);
    glBindVertexArray(dynamic_vao_);
    glDrawArrays(GL_TRIANGLES, 0, dynamic_count);
    glDisable(GL_POLYGON_OFFSET_FILL);

    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target_fbo));
    glViewport(0, 0, view.width, view.height);
    glClearColor(0.74f, 0.8f, 0.87f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const float aspect = float(view.width) / float(view.height > 0 ? view.height : 1);
    const Mat4 vp = perspective(view.fov_deg * kPi / 180.0f, aspect, 0.05f, 200.0f) *
                    look_at(view.eye, view.target, v3(0, 1, 0));
    glUseProgram(program_);
    uniform(program_, "u_view_proj", vp);
    uniform(program_, "u_light_view_proj", light_vp);
    uniform(program_, "u_eye", view.eye);
    uniform(program_, "u_to_sun", kToSun);
    uniform(program_, "u_target", view.target);
    glUniform1f(glGetUniformLocation(program_, "u_texel"), 1.0f / kShadowSize);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, shadow_tex_);
    glUniform1i(glGetUniformLocation(program_, "u_shadow"), 0);
    glUniform1i(glGetUniformLocation(program_, "u_grid"), 1);
    glBindVertexArray(ground_vao_);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glUniform1i(glGetUniformLocation(program_, "u_grid"), 0);
    glBindVertexArray(static_vao_);
    glDrawArrays(GL_TRIANGLES, 0, static_count_);
    glBindVertexArray(dynamic_vao_);
    glDrawArrays(GL_TRIANGLES, 0, dynamic_count);

    if (!dynamic.lines.empty()) {
        glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(dynamic.lines.size() * sizeof(LineVertex)),
                     dynamic.lines.data(), GL_STREAM_DRAW);
        glUseProgram(line_program_);
        uniform(line_program_, "u_view_proj", vp);
        glBindVertexArray(line_vao_);
        glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(dynamic.lines.size()));
    }
    glBindVertexArray(0);
    glUseProgram(0);
}

bool Offscreen::init(int width, int height, int samples) {
    width_ = width, height_ = height;
    glGenFramebuffers(1, &msaa_fbo_);
    glGenRenderbuffers(1, &msaa_color_);
    glGenRenderbuffers(1, &msaa_depth_);
    glBindRenderbuffer(GL_RENDERBUFFER, msaa_color_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msaa_color_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, msaa_depth_);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    ok = ok && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!ok) std::fprintf(stderr, "the offscreen framebuffer is incomplete\n");
    return ok;
}

void Offscreen::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_); }

void Offscreen::resolve() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
}

std::vector<std::uint8_t> Offscreen::read() const {
    std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width_) * height_ * 3);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    // GL's rows run bottom to top.
    std::vector<std::uint8_t> flipped(rgb.size());
    const std::size_t row = static_cast<std::size_t>(width_) * 3;
    for (int y = 0; y < height_; ++y) std::memcpy(&flipped[y * row], &rgb[(height_ - 1 - y) * row], row);
    return flipped;
}

}  // namespace samples
