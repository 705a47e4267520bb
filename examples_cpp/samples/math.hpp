// math.hpp: the little vector algebra the samples app needs, over sinew's
// own plain structs (sinew::Vec3, sinew::Quat, sinew::Transform), plus a
// column-major 4x4 matrix for OpenGL.
#pragma once

#include <sinew.hpp>

#include <cmath>

namespace samples {

using sinew::Quat;
using sinew::Transform;
using sinew::Vec3;

inline Vec3 v3(float x, float y, float z) { return Vec3{x, y, z}; }
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 operator*(float s, Vec3 a) { return a * s; }
inline Vec3& operator+=(Vec3& a, Vec3 b) { return a = a + b; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 normalize(Vec3 a) {
    const float l = length(a);
    return l > 1e-12f ? a * (1.0f / l) : Vec3{0.0f, 1.0f, 0.0f};
}
inline Vec3 lerp(Vec3 a, Vec3 b, float t) { return a + (b - a) * t; }
inline bool finite(Vec3 a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }

inline Quat quat_identity() { return Quat{0.0f, 0.0f, 0.0f, 1.0f}; }
inline Quat axis_angle(Vec3 axis, float angle) {
    const Vec3 n = normalize(axis);
    const float s = std::sin(0.5f * angle);
    return Quat{n.x * s, n.y * s, n.z * s, std::cos(0.5f * angle)};
}
inline Quat rot_x(float a) { return axis_angle(v3(1, 0, 0), a); }
inline Quat rot_y(float a) { return axis_angle(v3(0, 1, 0), a); }
inline Quat rot_z(float a) { return axis_angle(v3(0, 0, 1), a); }
inline Quat operator*(Quat a, Quat b) {
    return Quat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
inline Quat conjugate(Quat q) { return Quat{-q.x, -q.y, -q.z, q.w}; }
inline Vec3 rotate(Quat q, Vec3 v) {
    const Vec3 u{q.x, q.y, q.z};
    const Vec3 t = 2.0f * cross(u, v);
    return v + q.w * t + cross(u, t);
}
/// The shortest rotation taking unit vector a to unit vector b.
inline Quat rotation_arc(Vec3 a, Vec3 b) {
    const float d = dot(a, b);
    if (d < -0.999999f) {
        Vec3 axis = cross(v3(1, 0, 0), a);
        if (length(axis) < 1e-6f) axis = cross(v3(0, 1, 0), a);
        return axis_angle(axis, 3.14159265f);
    }
    const Vec3 c = cross(a, b);
    const float s = std::sqrt((1.0f + d) * 2.0f);
    return Quat{c.x / s, c.y / s, c.z / s, 0.5f * s};
}

inline Transform xform(Vec3 p, Quat q = quat_identity()) { return Transform{p, q}; }
inline Vec3 apply(const Transform& t, Vec3 p) { return t.position + rotate(t.rotation, p); }
inline Transform compose(const Transform& a, const Transform& b) {
    return Transform{apply(a, b.position), a.rotation * b.rotation};
}
inline Transform inverse(const Transform& t) {
    const Quat c = conjugate(t.rotation);
    return Transform{rotate(c, -t.position), c};
}

/// Column-major 4x4 (OpenGL's layout).
struct Mat4 {
    float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float& at(int row, int col) { return m[col * 4 + row]; }
    float at(int row, int col) const { return m[col * 4 + row]; }
};
inline Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            float s = 0.0f;
            for (int k = 0; k < 4; ++k) s += a.at(i, k) * b.at(k, j);
            r.at(i, j) = s;
        }
    return r;
}
inline Mat4 look_at(Vec3 eye, Vec3 target, Vec3 up) {
    const Vec3 f = normalize(target - eye);
    const Vec3 s = normalize(cross(f, up));
    const Vec3 u = cross(s, f);
    Mat4 r;
    r.at(0, 0) = s.x, r.at(0, 1) = s.y, r.at(0, 2) = s.z, r.at(0, 3) = -dot(s, eye);
    r.at(1, 0) = u.x, r.at(1, 1) = u.y, r.at(1, 2) = u.z, r.at(1, 3) = -dot(u, eye);
    r.at(2, 0) = -f.x, r.at(2, 1) = -f.y, r.at(2, 2) = -f.z, r.at(2, 3) = dot(f, eye);
    return r;
}
inline Mat4 perspective(float fov_y_rad, float aspect, float near_z, float far_z) {
    Mat4 r;
    const float f = 1.0f / std::tan(0.5f * fov_y_rad);
    r.at(0, 0) = f / aspect;
    r.at(1, 1) = f;
    r.at(2, 2) = (far_z + near_z) / (near_z - far_z);
    r.at(2, 3) = 2.0f * far_z * near_z / (near_z - far_z);
    r.at(3, 2) = -1.0f;
    r.at(3, 3) = 0.0f;
    return r;
}
inline Mat4 orthographic(float half_w, float half_h, float near_z, float far_z) {
    Mat4 r;
    r.at(0, 0) = 1.0f / half_w;
    r.at(1, 1) = 1.0f / half_h;
    r.at(2, 2) = -2.0f / (far_z - near_z);
    r.at(2, 3) = -(far_z + near_z) / (far_z - near_z);
    return r;
}

}  // namespace samples
