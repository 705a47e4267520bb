// scenes.hpp: what a scene of the samples app holds. A scene is a sinew
// world plus what the app needs to draw it (colliders' shapes, which bodies
// are cloth, ragdolls, rigid bodies or ropes, their colours) and a function
// that plays the scene's "game" before each step (wind gusts, animation,
// shoves). All physics is the library's; a scene only places things, feeds
// inputs and reads back through the C++ wrapper (bindings/cpp/sinew.hpp).
#pragma once

#include "math.hpp"

#include <sinew.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace samples {

struct Color {
    float r, g, b;
};
/// 0xRRGGBB.
inline Color hex(std::uint32_t rgb) {
    return Color{((rgb >> 16) & 255) / 255.0f, ((rgb >> 8) & 255) / 255.0f, (rgb & 255) / 255.0f};
}
inline Color scale(Color c, float s) { return Color{c.r * s, c.g * s, c.b * s}; }
inline Color mix(Color a, Color b, float t) {
    return Color{a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/// What the panel sets. Wind, motors, substeps, iterations, SIMD level,
/// workers, sleeping and the cloth compliances apply live, through the
/// world's and the cloths' setters.
struct Settings {
    int substeps = 8;
    int iterations = 1;
    /// Cloth stretch, shear and bend compliance (m/N), given to every cloth
    /// built and set live on every cloth of the scene (sinew_cloth_set_compliance).
    float stretch_compliance = 0.0f;
    float shear_compliance = 1e-6f;
    float bend_compliance = 1e-3f;
    /// Added to the scene's own wind, m/s.
    Vec3 wind{0.0f, 0.0f, 0.0f};
    /// Multiplies the scene's own gusts.
    float gust_scale = 1.0f;
    /// Every powered ragdoll's motor: strength 0..1 and max force, newtons.
    float motor_strength = 0.5f;
    float motor_max_force = 1500.0f;
    /// SINEW_SIMD_* (0 = auto) and threads per step (the app starts with
    /// the machine's cores, at most 4).
    int simd_level = 0;
    int worker_count = 1;
    bool sleeping = true;
};

enum class Shape { Box, Sphere, Capsule, Mesh };

/// A collider as drawn: static ones are baked once, kinematic ones follow
/// their collider's transform every frame.
struct ShapeDraw {
    Shape shape = Shape::Box;
    Transform transform = xform(v3(0, 0, 0));
    Vec3 half{0.5f, 0.5f, 0.5f};  // box
    float radius = 0.5f;          // sphere, capsule
    float half_height = 0.0f;     // capsule, along local Y
    std::vector<Vec3> points;     // mesh
    std::vector<std::uint32_t> indices;
    std::vector<Color> vertex_colors;
    Color color = hex(0x888888);
    sinew::Collider collider{};  // kinematic: drawn where this is
    bool kinematic = false;
};

struct ClothDraw {
    sinew::Cloth cloth;
    std::vector<std::uint32_t> indices;  // engine vertices, 3 per triangle
    std::vector<Color> colors;           // per engine vertex
};

struct RagdollDraw {
    sinew::Ragdoll body;
    float height = 1.8f;
    Color shirt = hex(0x3f6fb5);
    /// Driven by the panel's motor settings, times this.
    bool powered = false;
    float force_scale = 1.0f;
};

struct RigidDraw {
    sinew::Rigid body;
    Shape shape = Shape::Box;
    Vec3 half{0.5f, 0.5f, 0.5f};
    float radius = 0.5f;
    Color color = hex(0x888888);
};

/// A particle body drawn as capsules between particle pairs (ropes, chains).
struct RopeDraw {
    sinew::Body body;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> segments;
    float radius = 0.02f;
    Color color = hex(0xc9a66b);
    bool alternate = false;  // darken every other link
};

struct Camera {
    Vec3 eye;
    Vec3 target;
    float fov_deg = 45.0f;
};

/// A scene's physical outcome: whether it holds, and what was measured.
struct Outcome {
    bool ok = false;
    std::string what;
};

struct Scene {
    std::string name;
    std::string title;
    sinew::World world;
    Camera camera{};
    float ground = 0.0f;
    /// Half size of the region the shadow map covers, metres.
    float shadow_extent = 5.0f;
    std::vector<ShapeDraw> shapes;
    std::vector<ClothDraw> cloths;
    std::vector<RagdollDraw> ragdolls;
    std::vector<RigidDraw> rigids;
    std::vector<RopeDraw> ropes;
    /// Marks where bodies touch each other (the contacts between bodies of
    /// the last step); the panel toggles it.
    bool mark_body_contacts = false;
    /// The scene's game before step `step` (from 0), or empty.
    std::function<void(Scene&, const Settings&, int step)> before;
    /// What the scene should have done after `outcome_frames` frames (the
    /// stack fell, the bridge held both crates), checked by the headless run
    /// from then on; empty when there is nothing cheap to check.
    int outcome_frames = 0;
    std::function<Outcome(const Scene&)> outcome;

    /// Every body the app knows (for finiteness, sleep, bounds).
    std::vector<sinew::Body> bodies() const;
};

/// A scene's name and its builder.
struct SceneEntry {
    const char* name;
    const char* title;
    std::unique_ptr<Scene> (*build)(const Settings&);
    /// Substeps the scene starts with (the library's default is 8, for cloth at 60 Hz).
    int substeps = 8;
};

/// Every scene, in menu order.
const std::vector<SceneEntry>& all_scenes();

/// The world def the settings ask for.
sinew::WorldDef world_def(const Settings& s);

/// Turns sleeping on (the library's default speed and time) or off, live.
sinew::Result apply_sleep(sinew::World& world, const Settings& s);

/// Applies the panel's motor settings to every powered ragdoll.
void apply_motors(Scene& scene, const Settings& s);
/// Sets the panel's cloth compliances on every cloth of the scene, live
/// (sinew_cloth_set_compliance); the first failure, or OK.
sinew::Result apply_cloth_compliance(Scene& scene, const Settings& s);

/// The humanoid preset's bone lengths and collision radii at 1.8 m, as in the
/// library's preset (the C API reads back transforms, not radii).
float humanoid_bone_length(int bone, float height);
float humanoid_bone_radius(int bone, float height);
/// The colour a humanoid's bone is drawn in, wearing `shirt`.
Color humanoid_bone_color(int bone, Color shirt);
inline constexpr int kHumanoidBones = 17;

}  // namespace samples
