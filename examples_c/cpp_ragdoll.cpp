// cpp_ragdoll.cpp: a ragdoll on motors through the C++ wrapper. A humanoid
// stands on the ground holding its rest pose; its animation turns it a
// quarter turn about +Y (the pose rotated with sinew::quat_axis_angle,
// quat_multiply and rotate); it is hit in the chest; the motors pull it back
// onto the turned pose while physics keeps the last word. A cloth mat lies
// flat under it (SINEW_GRID_PLANE_XZ: no quaternion needed). Prints the RMS
// distance of the bones' heads from the pose and checks it (measured: 0.4 cm
// before and after the turn, pushed 8.3 cm off, 0.4 cm at the end).
//
// value() is used unchecked on purpose: on a failure it throws sinew::Error
// (exceptions on) or prints the message and aborts (exceptions off), so a
// failure cannot pass unnoticed.
//
// Build (from the repository root, after `cargo build --release`):
//   c++ -std=c++17 -Iinclude -Ibindings/cpp examples_c/cpp_ragdoll.cpp -Ltarget/release -lsinew
//       -Wl,-rpath,$PWD/target/release -o cpp_ragdoll && ./cpp_ragdoll
// (one line).
#include <cmath>
#include <cstdio>
#include <vector>

#include "sinew.hpp"

namespace {

constexpr int kFps = 60;
constexpr float kDt = 1.0f / kFps;

// RMS distance (metres) of the bones' heads from the pose's.
float rms(const std::vector<sinew::Transform>& bones, const std::vector<sinew::Transform>& pose) {
    float sum = 0.0f;
    for (std::size_t b = 0; b < bones.size(); ++b) {
        const float dx = bones[b].position.x - pose[b].position.x;
        const float dy = bones[b].position.y - pose[b].position.y;
        const float dz = bones[b].position.z - pose[b].position.z;
        sum += dx * dx + dy * dy + dz * dz;
    }
    return std::sqrt(sum / static_cast<float>(bones.size()));
}

// The rest pose turned by `q` about the point between the feet (the origin).
std::vector<sinew::Transform> turned(const std::vector<sinew::Transform>& rest, sinew::Quat q) {
    std::vector<sinew::Transform> pose = rest;
    for (sinew::Transform& t : pose) {
        t.position = sinew::rotate(q, t.position);
        t.rotation = sinew::quat_multiply(q, t.rotation);
    }
    return pose;
}

}  // namespace

int main() {
    sinew::World world = sinew::World::create().value();
    (void)world.create_plane({0.0f, 1.0f, 0.0f}, 0.0f, 0.8f).value();

    // A 2 m square mat lying on the ground, its top-left corner at (-1, 0, -1).
    sinew::ClothGridDef mat = sinew::default_cloth_grid_def();
    mat.plane = SINEW_GRID_PLANE_XZ;  // columns along +X, rows along +Z, facing +Y
    mat.transform.position = {-1.0f, 0.01f, -1.0f};
    mat.columns = mat.rows = 21;
    mat.pin_flags = 0;
    (void)world.create_cloth_grid(mat).value();

    // A 1.8 m figure standing on the mat, facing +Z; its rest pose is the start of the animation.
    sinew::Ragdoll doll = world.create_humanoid({{0.0f, 0.02f, 0.0f}, sinew::identity_quat()}, 1.8f).value();
    const std::vector<sinew::Transform> rest = doll.read_bones().value();
    const std::uint32_t chest = doll.find_bone("chest").value();
    (void)doll.set_motor_strength(0.3f, 1000.0f);  // firm, not rigid: 1000 N at most per bone
    (void)doll.set_motor_root_motion(true);         // its place is animated too (off by default)

    const float quarter_turn = 1.5707963f;
    float held = 0.0f, after_turn = 0.0f, pushed = 0.0f, last = 0.0f;
    for (int frame = 1; frame <= 5 * kFps; ++frame) {
        // The animation: hold for 1 s, turn a quarter turn over 1 s, hold.
        const float t = static_cast<float>(frame) / kFps;
        const float turn = quarter_turn * std::fmin(std::fmax(t - 1.0f, 0.0f), 1.0f);
        const std::vector<sinew::Transform> pose = turned(rest, sinew::quat_axis_angle({0.0f, 1.0f, 0.0f}, turn));
        (void)doll.set_motor_targets(pose.data(), static_cast<std::uint32_t>(pose.size()));
        if (frame == 3 * kFps) {
            const sinew::Vec3 at = doll.read_bones().value()[chest].position;
            (void)doll.apply_impulse(chest, at, {-80.0f, 0.0f, 0.0f});  // 80 N s into the chest from the front
            std::printf("t = %.2f s: hit in the chest, 80 N s\n", t);
        }
        (void)world.step(kDt);
        const float e = rms(doll.read_bones().value(), pose);
        if (frame < kFps) held = std::fmax(held, e);
        if (frame == 3 * kFps - 1) after_turn = e;
        if (frame >= 3 * kFps) pushed = std::fmax(pushed, e);
        if (frame % 30 == 0) std::printf("t = %.2f s: turned %4.1f deg, %5.1f cm RMS off the pose\n", t,
                                         turn * 57.29578f, 100.0f * e);
        last = e;
    }
    std::printf("held within %.1f cm; %.1f cm off after the turn; pushed %.1f cm off; %.1f cm at the end\n",
                100.0f * held, 100.0f * after_turn, 100.0f * pushed, 100.0f * last);
    if (held > 0.02f || after_turn > 0.03f || pushed < 0.04f || last > 0.02f) {
        std::fprintf(stderr, "FAILED: the motors did not hold, turn, feel the hit or recover\n");
        return 1;
    }
    std::printf("ok: the figure turned with its animation, took the hit and recovered\n");
    return 0;
}
