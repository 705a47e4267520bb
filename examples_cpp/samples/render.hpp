// render.hpp: OpenGL 3.3 drawing for the samples app. Meshes are triangle
// soups rebuilt on the CPU every frame (capsules, boxes, spheres, cloth from
// sinew_cloth_write_vertices), lit by one sun with a shadow map and a sky
// fill, over a gridded ground; lines for contacts and bounds.
#pragma once

#include "math.hpp"
#include "scenes.hpp"

#include <GL/glew.h>

#include <cstdint>
#include <vector>

namespace samples {

struct Vertex {
    float p[3];
    float n[3];
    float c[3];
};
static_assert(sizeof(Vertex) == 36, "Vertex is three packed float triples");

struct LineVertex {
    float p[3];
    float c[3];
};

/// Triangles and lines of one frame (or of the static colliders).
struct Geometry {
    std::vector<Vertex> triangles;
    std::vector<LineVertex> lines;

    void clear() {
        triangles.clear();
        lines.clear();
    }
    void triangle(Vec3 a, Vec3 b, Vec3 c, Vec3 n, Color color);
    void vertex(Vec3 p, Vec3 n, Color c) { triangles.push_back({{p.x, p.y, p.z}, {n.x, n.y, n.z}, {c.r, c.g, c.b}}); }
    void box(const Transform& t, Vec3 half, Color color);
    void capsule(Vec3 a, Vec3 b, float radius, Color color, int sides = 12, int rings = 4);
    void sphere(Vec3 center, float radius, Color color) { capsule(center, center, radius, color, 16, 6); }
    /// Indexed triangles expanded into the soup; per-vertex colours.
    void indexed(const Vertex* vertices, const std::uint32_t* indices, std::size_t index_count);
    void line(Vec3 a, Vec3 b, Color c);
    void wire_box(Vec3 lo, Vec3 hi, Color c);
};

/// The view: where the camera is and what it looks at.
struct View {
    Vec3 eye;
    Vec3 target;
    float fov_deg = 45.0f;
    int width = 1280, height = 720;
};

class Renderer {
public:
    /// Compiles the shaders and makes the buffers; false (with a message on
    /// stderr) when the GL context cannot.
    bool init();
    /// Draws into the bound framebuffer: the ground grid at `ground`, the
    /// static and dynamic geometry lit and shadowed (the shadow map covers
    /// `shadow_extent` metres around the view's target).
    void draw(const View& view, float ground, float shadow_extent, const Geometry& statics, bool statics_changed,
              const Geometry& dynamic);

private:
    void upload(GLuint vbo, const std::vector<Vertex>& v, bool stream);
    GLuint program_ = 0, depth_program_ = 0, line_program_ = 0;
    GLuint static_vao_ = 0, static_vbo_ = 0, dynamic_vao_ = 0, dynamic_vbo_ = 0, ground_vao_ = 0, ground_vbo_ = 0;
    GLuint line_vao_ = 0, line_vbo_ = 0;
    GLuint shadow_fbo_ = 0, shadow_tex_ = 0;
    GLsizei static_count_ = 0;
    float ground_at_ = 1e30f;
};

/// An offscreen multisampled target resolved into a plain one (headless
/// screenshots): bind(), draw, resolve(), then read pixels.
class Offscreen {
public:
    bool init(int width, int height, int samples);
    void bind() const;
    /// Resolves into the plain target and leaves it bound (for the UI and reading).
    void resolve() const;
    /// RGB rows top to bottom.
    std::vector<std::uint8_t> read() const;

private:
    int width_ = 0, height_ = 0;
    GLuint msaa_fbo_ = 0, msaa_color_ = 0, msaa_depth_ = 0, fbo_ = 0, color_ = 0;
};

}  // namespace samples
