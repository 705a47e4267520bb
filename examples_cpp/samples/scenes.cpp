// scenes.cpp: the samples app's scenes. The first eight are the GIF
// showcase's (examples/showcase/scenes.rs) rebuilt through the C++ wrapper;
// the rest show what a game comes for: a dressed character, a crowd of
// ragdolls, motors against a shove, bodies on bodies (a pile of ragdolls, a
// blanket over one).
#include "scenes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

namespace samples {

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = 3.14159265358979f;
constexpr float kHalfPi = 0.5f * kPi;

// Scenes are built from known-good inputs: a failure is a bug, reported and fatal.
void must(const sinew::Result& r, const char* what) {
    if (r) return;
    std::fprintf(stderr, "sinew: %s failed: %s (%s)\n", what, r.name(), r.message().c_str());
    std::exit(2);
}
template <class T>
T must(sinew::Expected<T> e, const char* what) {
    must(e.result(), what);
    return std::move(e).value();
}


/// printf into a string, for the outcomes' measurements.
template <class... Args>
std::string text(const char* format, Args... args) {
    char buf[256];
    std::snprintf(buf, sizeof buf, format, args...);
    return buf;
}

sinew::Bounds bounds_of(const sinew::Body& b) { return must(b.bounds(), "bounds"); }

/// Where a ragdoll's bone starts (0 = pelvis).
Vec3 bone_at(const sinew::Ragdoll& r, int bone) { return must(r.read_bones(), "read_bones")[bone].position; }

/// The lowest pelvis height of the scene's ragdolls.
float lowest_pelvis(const Scene& s) {
    float low = std::numeric_limits<float>::infinity();
    for (const RagdollDraw& r : s.ragdolls) low = std::min(low, bone_at(r.body, 0).y);
    return low;
}

// The humanoid preset at 1.8 m (src/ragdoll/humanoid.rs): bone lengths and radii.
constexpr float kBoneLength[kHumanoidBones] = {0.13f, 0.17f, 0.20f, 0.10f, 0.23f, 0.30f, 0.26f, 0.18f, 0.30f,
                                               0.26f, 0.18f, 0.43f, 0.41f, 0.187f, 0.43f, 0.41f, 0.187f};
constexpr float kBoneRadius[kHumanoidBones] = {0.12f, 0.11f, 0.13f, 0.05f,  0.10f, 0.045f, 0.04f, 0.035f, 0.045f,
                                               0.04f, 0.035f, 0.07f, 0.05f, 0.04f, 0.07f,  0.05f, 0.04f};
// Collision layers of the dressed character: its body's capsules are seen
// by its clothes only, so the ragdoll does not collide with its own proxies.
constexpr std::uint32_t kLayerBody = 2;
constexpr std::uint32_t kLayerProxy = 4;
constexpr std::uint32_t kLayerCloth = 8;

/// A humanoid in the scene's world, drawn; scenes that add
/// bodies while they run call it from their `before`.
sinew::Ragdoll add_humanoid(Scene& scene, const Transform& at, float height, Color shirt, bool powered = false,
                            float force_scale = 1.0f) {
    sinew::Ragdoll body = must(scene.world.create_humanoid(at, height), "create_humanoid");
    // The scenes animate a driven character's place too (root motion is an
    // opt-in; it does nothing until motor targets are set).
    must(body.set_motor_root_motion(true), "set_motor_root_motion");
    RagdollDraw d;
    d.body = body, d.height = height, d.shirt = shirt, d.powered = powered, d.force_scale = force_scale;
    scene.ragdolls.push_back(d);
    return body;
}

/// A rigid body in the scene's world, drawn.
sinew::Rigid add_rigid(Scene& scene, const sinew::RigidDef& def, Color color) {
    sinew::Rigid body = must(scene.world.create_rigid(def), "create_rigid");
    RigidDraw d;
    d.body = body, d.color = color;
    d.shape = def.shape == SINEW_SHAPE_SPHERE ? Shape::Sphere : Shape::Box;
    d.half = def.half_extents, d.radius = def.radius;
    scene.rigids.push_back(d);
    return body;
}

/// Builds a scene: the world from the settings, colliders drawn as made.
class Builder {
public:
    Builder(const char* name, const char* title, const Settings& settings) : settings_(settings) {
        scene_ = std::make_unique<Scene>();
        scene_->name = name;
        scene_->title = title;
        scene_->world = must(sinew::World::create(world_def(settings)), "World::create");
        must(scene_->world.set_wind(settings.wind), "set_wind");
    }

    Scene& scene() { return *scene_; }
    sinew::World& world() { return scene_->world; }
    std::unique_ptr<Scene> finish(Camera camera, float shadow_extent) {
        scene_->camera = camera;
        scene_->shadow_extent = shadow_extent;
        return std::move(scene_);
    }

    void ground(float y = 0.0f) {
        must(world().create_plane(v3(0, 1, 0), y, 0.6f), "ground");
        scene_->ground = y;
    }
    void block(Vec3 p, Quat q, Vec3 half, Color c, float friction = 0.6f) {
        must(world().create_box(xform(p, q), half, friction), "box collider");
        ShapeDraw d;
        d.shape = Shape::Box, d.transform = xform(p, q), d.half = half, d.color = c;
        scene_->shapes.push_back(d);
    }
    void sphere(Vec3 p, float r, Color c, bool collides = true) {
        if (collides) must(world().create_sphere(p, r, 0.6f), "sphere collider");
        ShapeDraw d;
        d.shape = Shape::Sphere, d.transform = xform(p), d.radius = r, d.color = c;
        scene_->shapes.push_back(d);
    }
    void pole(Vec3 a, Vec3 b, float r, Color c) {
        must(world().create_capsule(a, b, r, 0.6f), "capsule collider");
        ShapeDraw d;
        d.shape = Shape::Capsule, d.radius = r, d.half_height = 0.5f * length(b - a), d.color = c;
        d.transform = xform(0.5f * (a + b), rotation_arc(v3(0, 1, 0), normalize(b - a)));
        scene_->shapes.push_back(d);
    }

    /// A grid cloth with the panel's compliances; colours per vertex (row, column).
    template <class ColorOf>
    sinew::Cloth grid(sinew::ClothGridDef def, ColorOf color_of) {
        def.stretch_compliance = settings_.stretch_compliance;
        def.shear_compliance = settings_.shear_compliance;
        def.bend_compliance = settings_.bend_compliance;
        sinew::Cloth cloth = must(world().create_cloth_grid(def), "create_cloth_grid");
        const std::uint32_t c = def.columns, r = def.rows;
        ClothDraw d;
        d.cloth = cloth;
        for (std::uint32_t row = 0; row + 1 < r; ++row) {
            for (std::uint32_t col = 0; col + 1 < c; ++col) {
                const std::uint32_t i = row * c + col;
                // Counter-clockwise seen from the grid's +Z, the side its normals face.
                d.indices.insert(d.indices.end(), {i, i + c, i + c + 1, i, i + c + 1, i + 1});
            }
        }
        for (std::uint32_t row = 0; row < r; ++row)
            for (std::uint32_t col = 0; col < c; ++col) d.colors.push_back(color_of(row, col));
        scene_->cloths.push_back(std::move(d));
        return cloth;
    }

    /// A cloth from a triangle mesh, with the panel's compliances.
    sinew::Cloth mesh_cloth(sinew::ClothMeshDef def, const std::vector<Vec3>& vertices,
                            const std::vector<std::uint32_t>& indices, const std::vector<Color>& colors) {
        def.vertices = vertices.data();
        def.vertex_count = static_cast<std::uint32_t>(vertices.size());
        def.indices = indices.data();
        def.triangle_count = static_cast<std::uint32_t>(indices.size() / 3);
        def.stretch_compliance = settings_.stretch_compliance;
        def.bend_compliance = settings_.bend_compliance;
        sinew::Cloth cloth = must(world().create_cloth(def), "create_cloth");
        ClothDraw d;
        d.cloth = cloth, d.indices = indices, d.colors = colors;
        scene_->cloths.push_back(std::move(d));
        return cloth;
    }

    sinew::Ragdoll humanoid(Vec3 at, Quat facing, float height, Color shirt, bool powered = false,
                            float force_scale = 1.0f) {
        return add_humanoid(*scene_, xform(at, facing), height, shirt, powered, force_scale);
    }

    sinew::Rigid rigid(const sinew::RigidDef& def, Color color) { return add_rigid(*scene_, def, color); }

    void sticks(sinew::Body body, const std::vector<sinew::DistanceConstraint>& sticks) {
        must(body.add_distance_constraints(sticks.data(), static_cast<std::uint32_t>(sticks.size())), "sticks");
    }
    void collision_sticks(sinew::Body body, const std::vector<sinew::CollisionStick>& sticks) {
        must(body.add_collision_sticks(sticks.data(), static_cast<std::uint32_t>(sticks.size())), "collision sticks");
    }
    void joint(const sinew::Body& a, std::uint32_t pa, const sinew::Body& b, std::uint32_t pb) {
        must(world().create_joint(a, pa, b, pb), "create_joint");
    }

private:
    const Settings& settings_;
    std::unique_ptr<Scene> scene_;
};

sinew::RigidDef box_def(Vec3 p, Quat q, Vec3 half, float mass) {
    sinew::RigidDef def = sinew::default_rigid_def();
    def.shape = SINEW_SHAPE_BOX, def.transform = xform(p, q), def.half_extents = half, def.mass = mass;
    return def;
}
sinew::RigidDef ball_def(Vec3 p, float radius, float mass) {
    sinew::RigidDef def = sinew::default_rigid_def();
    def.shape = SINEW_SHAPE_SPHERE, def.transform = xform(p), def.radius = radius, def.mass = mass;
    return def;
}

/// The index of the particle of `body` nearest `p` (the C API gives bone
/// transforms, not the particles at the joints; at rest a joint's particle
/// sits on the bone's head).
std::uint32_t particle_near(const sinew::Body& body, Vec3 p) {
    const std::vector<Vec3> x = must(body.read_positions(), "read_positions");
    std::uint32_t best = 0;
    float best_d = std::numeric_limits<float>::infinity();
    for (std::uint32_t i = 0; i < x.size(); ++i) {
        const float d = length(x[i] - p);
        if (d < best_d) best = i, best_d = d;
    }
    return best;
}

Vec3 bone_tail(const Transform& bone, int index, float height) {
    return apply(bone, v3(0, humanoid_bone_length(index, height), 0));
}

/// Sets the wind: the scene's gust, scaled by the panel, plus the panel's own.
void set_gust(Scene& s, const Settings& set, Vec3 gust) {
    must(s.world.set_wind(gust * set.gust_scale + set.wind), "set_wind");
}

// ---------------------------------------------------------------- the showcase's

std::unique_ptr<Scene> flag(const Settings& set) {
    Builder b("flag", "a flag in gusting wind, pinned to a pole", set);
    b.ground();
    b.pole(v3(-0.05f, 0, 0), v3(-0.05f, 2.6f, 0), 0.035f, hex(0x8a8f96));
    b.sphere(v3(-0.05f, 2.65f, 0), 0.06f, hex(0xd9b43c), false);
    // The grid's top edge (its pinned row) turned upright along the pole: rows run out along +X.
    sinew::ClothGridDef def = sinew::default_cloth_grid_def();
    def.transform = xform(v3(0, 1.65f, 0), rot_z(kHalfPi));
    def.columns = 14, def.rows = 22, def.spacing = 0.065f, def.pin_flags = SINEW_PIN_TOP_EDGE;
    const Color bands[3] = {hex(0x1f4e9c), hex(0xf2f0ea), hex(0xc8312f)};
    const std::uint32_t rows = def.rows;
    b.grid(def, [&](std::uint32_t r, std::uint32_t) { return bands[std::min(r * 3 / (rows - 1), 2u)]; });
    b.scene().before = [](Scene& s, const Settings& set, int step) {
        const float t = step * kDt;
        const float gust = 6.0f + 2.5f * std::sin(1.3f * t) + 1.2f * std::sin(3.7f * t);
        set_gust(s, set, v3(gust, 0, 1.5f * std::sin(0.8f * t)));
    };
    b.scene().outcome_frames = 60;
    b.scene().outcome = [](const Scene& s) {
        // Flies out along +X from the pole in the wind, rather than hanging down it.
        const sinew::Bounds b = bounds_of(s.cloths[0].cloth);
        return Outcome{b.max.x > 0.9f && b.min.y > 0.5f, text("flag reaches x %.2f m, lowest %.2f m", b.max.x, b.min.y)};
    };
    return b.finish({v3(1.6f, 1.5f, 3.3f), v3(0.62f, 1.5f, 0), 42.0f}, 3.0f);
}

std::unique_ptr<Scene> curtain(const Settings& set) {
    Builder b("curtain", "a curtain falling over a sphere and a box", set);
    b.ground();
    b.sphere(v3(-0.5f, 0.45f, -0.15f), 0.45f, hex(0xb85c5c));
    b.block(v3(0.55f, 0.3f, 0.25f), rot_y(0.6f), v3(0.3f, 0.3f, 0.3f), hex(0x5f8fa8));
    sinew::ClothGridDef def = sinew::default_cloth_grid_def();
    def.transform = xform(v3(-1.05f, 1.6f, -1.05f), rot_x(-kHalfPi));  // laid flat: rows run along +Z
    def.columns = 36, def.rows = 36, def.spacing = 0.06f, def.pin_flags = 0;
    def.self_collision = 1, def.thickness = 0.012f;
    const Color gold = hex(0xd9a441), cream = hex(0xf1e6c8);
    b.grid(def, [&](std::uint32_t r, std::uint32_t c) { return (r / 5 + c / 5) % 2 == 0 ? gold : cream; });
    b.scene().outcome_frames = 120;
    b.scene().outcome = [](const Scene& s) {
        // Fallen from 1.6 m onto the sphere (top 0.9 m) and the box, not through them or the ground.
        const sinew::Bounds b = bounds_of(s.cloths[0].cloth);
        return Outcome{b.max.y < 1.0f && b.max.y > 0.8f && b.min.y > -0.01f,
                       text("curtain between %.3f and %.3f m high", b.min.y, b.max.y)};
    };
    return b.finish({v3(2.2f, 2.3f, 3.2f), v3(0, 0.45f, 0), 42.0f}, 2.5f);
}

/// Box stairs going down along +X from a landing at x < 0: `steps` steps.
void stairs_of(Builder& b, int steps, float rise, float run, float half_width, float landing) {
    const float top = steps * rise;
    auto stone = [](int k) { return k % 2 == 0 ? hex(0xa3abb5) : hex(0x8f98a3); };
    b.block(v3(-0.5f * landing, 0.5f * top, 0), quat_identity(), v3(0.5f * landing, 0.5f * top, half_width), stone(0));
    for (int k = 1; k < steps; ++k) {
        const float h = (steps - k) * rise;
        b.block(v3((k - 0.5f) * run, 0.5f * h, 0), quat_identity(), v3(0.5f * run, 0.5f * h, half_width), stone(k));
    }
}

std::unique_ptr<Scene> stairs(const Settings& set) {
    Builder b("stairs", "a ragdoll tumbling down box stairs", set);
    b.ground();
    stairs_of(b, 8, 0.2f, 0.3f, 0.8f, 1.0f);
    // Standing at the top edge, facing down the stairs (+X).
    sinew::Ragdoll body = b.humanoid(v3(-0.2f, 1.6f, 0.1f), rot_y(kHalfPi), 1.8f, hex(0x3f6fb5));
    b.scene().before = [body](Scene&, const Settings&, int step) mutable {
        if (step != 0) return;
        // A shove high in the back, and a shin kicked back: a dive.
        const auto bones = must(body.read_bones(), "read_bones");
        must(body.apply_impulse(2, bones[2].position, v3(45, 10, -4)), "apply_impulse");
        must(body.apply_impulse(12, bones[12].position, v3(-8, 8, 0)), "apply_impulse");
    };
    b.scene().outcome_frames = 150;
    b.scene().outcome = [](const Scene& s) {
        // Dived down the stairs: the pelvis past the third step (x 0.6) and below the top (1.6 m).
        const Vec3 p = bone_at(s.ragdolls[0].body, 0);
        return Outcome{p.x > 0.6f && p.y < 1.3f && p.y > 0.0f, text("pelvis at x %.2f, y %.2f m", p.x, p.y)};
    };
    return b.finish({v3(4.3f, 3.0f, 4.1f), v3(0.7f, 1.2f, 0), 45.0f}, 4.0f);
}

std::unique_ptr<Scene> powered(const Settings& set) {
    Builder b("powered", "a character following its animation through motors, shoved, recovering", set);
    b.ground();
    sinew::Ragdoll body = b.humanoid(v3(0, 0, 0), quat_identity(), 1.8f, hex(0x3f6fb5), true);
    const std::vector<Transform> pose = must(body.read_bones(), "read_bones");
    must(body.set_motor_targets(pose.data(), static_cast<std::uint32_t>(pose.size())), "set_motor_targets");
    b.scene().before = [body, pose](Scene&, const Settings&, int step) mutable {
        // The animation's pose every frame: standing, turning slowly from side to side.
        const Quat turn = rot_y(0.5f * std::sin(1.3f * step * kDt));
        std::vector<Transform> animated;
        for (const Transform& t : pose) animated.push_back({rotate(turn, t.position), turn * t.rotation});
        must(body.set_motor_targets(animated.data(), static_cast<std::uint32_t>(animated.size())), "motor targets");
        // Shoves on the chest: from behind, from the side, from the front; again every 4.5 s.
        const std::pair<int, Vec3> shoves[] = {{60, v3(0, 0, 140)}, {150, v3(130, 0, 0)}, {240, v3(0, 20, -140)}};
        for (const auto& shove : shoves) {
            if (step % 270 == shove.first) {
                const Vec3 chest = must(body.read_bones(), "read_bones")[2].position;
                must(body.apply_impulse(2, chest + v3(0, 0.1f, 0), shove.second), "apply_impulse");
            }
        }
    };
    b.scene().outcome_frames = 30;
    b.scene().outcome = [](const Scene& s) {
        // The motors keep it on its feet through the shoves (pelvis 0.95 m standing).
        const float y = lowest_pelvis(s);
        return Outcome{y > 0.75f, text("pelvis %.2f m high", y)};
    };
    return b.finish({v3(2.6f, 1.6f, 3.2f), v3(0, 0.9f, 0), 45.0f}, 2.5f);
}

std::unique_ptr<Scene> cape(const Settings& set) {
    Builder b("cape", "a cape joined to a ragdoll's shoulders, in gusting wind", set);
    b.ground();
    const Vec3 root = v3(0, 0.01f, 0);
    sinew::Ragdoll body = b.humanoid(root, quat_identity(), 1.8f, hex(0x3f6fb5));
    sinew::ClothGridDef def = sinew::default_cloth_grid_def();
    def.transform = xform(root + v3(-0.275f, 1.44f, -0.14f));
    def.columns = 11, def.rows = 18, def.spacing = 0.055f, def.pin_flags = 0, def.drag = 1.5f, def.lift = 0.5f;
    const Color red = hex(0xb3202f), dark = hex(0x7d1520);
    const std::uint32_t columns = def.columns;
    sinew::Cloth cloth = b.grid(def, [&](std::uint32_t r, std::uint32_t) { return r == 0 ? dark : red; });
    // Top corners to the shoulders (the upper arms' heads; the figure's left
    // is its +X), the top middle to the base of the neck.
    const std::vector<Transform> bones = must(body.read_bones(), "read_bones");
    const std::uint32_t left = particle_near(body, bones[5].position), right = particle_near(body, bones[8].position);
    const std::uint32_t neck = particle_near(body, bones[3].position), pelvis = particle_near(body, bones[0].position);
    const std::uint32_t chest_head = particle_near(body, bones[2].position);
    const std::uint32_t chest_tail = particle_near(body, bone_tail(bones[2], 2, 1.8f));
    const std::uint32_t crown = particle_near(body, bone_tail(bones[4], 4, 1.8f));
    b.joint(body, right, cloth, 0);
    b.joint(body, left, cloth, columns - 1);
    b.joint(body, neck, cloth, columns / 2);
    // The torso and head ride a frame that turns about the figure's root.
    const std::uint32_t held[] = {pelvis, chest_head, chest_tail, left, right, neck, crown};
    const std::uint32_t frame = must(body.attach_to_frame(held, 7, xform(root)), "attach_to_frame");
    // The skin: the cape's rest shape turned with the frame, normals out of
    // the back; the cloth may not pass more than 1 cm behind it.
    std::vector<Vec3> rest = must(cloth.read_positions(), "read_positions");
    for (Vec3& p : rest) p = p - root;
    auto skin = [cloth, rest, root](Quat q) mutable {
        std::vector<Vec3> points, normals(rest.size(), rotate(q, v3(0, 0, -1)));
        for (const Vec3& p : rest) points.push_back(root + rotate(q, p));
        must(cloth.set_skin(points.data(), normals.data(), static_cast<std::uint32_t>(points.size())), "set_skin");
    };
    skin(quat_identity());
    const std::vector<float> far(rest.size(), std::numeric_limits<float>::infinity()), back(rest.size(), 0.01f);
    must(cloth.set_max_distances(far.data(), back.data(), static_cast<std::uint32_t>(far.size())), "max distances");
    b.scene().before = [body, frame, skin, root](Scene& s, const Settings& set, int step) mutable {
        const float t = step * kDt;
        const float gust = 4.5f + 2.5f * std::sin(1.7f * t) + 1.0f * std::sin(4.3f * t);
        set_gust(s, set, v3(gust, 0.4f, -1.5f - 0.8f * std::sin(1.1f * t)));
        const Quat q = rot_y(0.7f * std::sin(0.9f * (t + kDt)));  // where the frame is at the end of this step
        must(body.set_frame(frame, xform(root, q)), "set_frame");
        skin(q);
    };
    b.scene().outcome_frames = 60;
    b.scene().outcome = [](const Scene& s) {
        // Hangs from the shoulders (1.44 m) behind the figure: not fallen off, not on the ground.
        const sinew::Bounds b = bounds_of(s.cloths[0].cloth);
        return Outcome{b.max.y > 1.3f && b.min.y > 0.2f, text("cape between %.2f and %.2f m high", b.min.y, b.max.y)};
    };
    return b.finish({v3(1.7f, 1.5f, 2.4f), v3(0.35f, 1.0f, -0.3f), 45.0f}, 2.5f);
}

std::unique_ptr<Scene> stack(const Settings& set) {
    Builder b("stack", "a pyramid of shape-matched boxes knocked over by a ball", set);
    b.ground();
    const float h = 0.17f;
    const int levels = 5;
    const Color woods[2] = {hex(0xc99257), hex(0xe0b878)};
    for (int level = 0; level < levels; ++level) {
        const int count = levels - level;
        for (int k = 0; k < count; ++k) {
            const float x = (k - 0.5f * (count - 1)) * (2.0f * h + 0.01f);
            sinew::RigidDef def = box_def(v3(x, h + level * (2.0f * h + 0.01f), 0), quat_identity(), v3(h, h, h), 3);
            def.model = SINEW_RIGID_SHAPE_MATCHED, def.stiffness = 1.0f;
            b.rigid(def, woods[(level + k) % 2]);
        }
    }
    sinew::Rigid ball = b.rigid(ball_def(v3(-2.6f, 0.25f, 0.4f), 0.25f, 20.0f), hex(0x4a4f57));
    b.scene().before = [ball](Scene&, const Settings&, int step) mutable {
        if (step != 30) return;
        // Thrown at 7 m/s towards the pyramid's middle.
        const Transform t = must(ball.transform(), "rigid transform");
        must(ball.apply_impulse(t.position, v3(7.0f, 2.4f, -1.0f) * 20.0f), "apply_impulse");
    };
    // Two and a half seconds after the throw: at 1.5 s the top box may still
    // be in the air, tossed above its place by the collapse (1.87 m at frame
    // 120 once rigid friction was shared over contact patches; 0.56 m at
    // 150, 0.17 m at 300).
    b.scene().outcome_frames = 180;
    b.scene().outcome = [](const Scene& s) {
        // The ball (thrown at frame 30) knocked the pyramid over: its top box (1.57 m up) fell.
        const float y = must(s.rigids[14].body.transform(), "transform").position.y;
        return Outcome{y < 1.2f && y > 0.0f, text("top box %.2f m high (1.57 at rest)", y)};
    };
    return b.finish({v3(1.4f, 1.7f, 4.6f), v3(0.2f, 0.55f, 0), 45.0f}, 3.5f);
}

std::unique_ptr<Scene> bridge(const Settings& set) {
    Builder b("bridge", "a rope bridge: rigid planks joined to ropes of particles, two crates dropped on it", set);
    b.ground();
    const int n = 21;
    const float half_span = 2.0f;
    for (float x : {-half_span - 0.08f, half_span + 0.08f})
        for (float z : {-0.42f, 0.42f}) b.block(v3(x, 1.25f, z), quat_identity(), v3(0.06f, 1.25f, 0.06f), hex(0x6b4a2f));
    // Ropes 0 and 1 carry the deck (z = -+0.35), 2 and 3 are handrails; all
    // sag as a parabola, their ends pinned at the posts.
    auto sag = [&](int k) {
        const float s = 2.0f * k / (n - 1) - 1.0f;
        return 1.0f - s * s;
    };
    std::vector<Vec3> points;
    const float ropes_at[4][3] = {{1.5f, 0.35f, -0.35f}, {1.5f, 0.35f, 0.35f}, {2.35f, 0.2f, -0.42f}, {2.35f, 0.2f, 0.42f}};
    for (const auto& r : ropes_at)
        for (int k = 0; k < n; ++k) points.push_back(v3(-half_span + 2.0f * half_span * k / (n - 1), r[0] - r[1] * sag(k), r[2]));
    std::vector<float> inv_mass;
    for (int i = 0; i < 4 * n; ++i) inv_mass.push_back(i % n == 0 || i % n == n - 1 ? 0.0f : 3.0f);
    sinew::Body ropes = must(b.world().create_particles(points.data(), inv_mass.data(), 4 * n), "ropes");
    auto at = [&](int rope, int k) { return static_cast<std::uint32_t>(rope * n + k); };
    std::vector<sinew::DistanceConstraint> sticks;
    for (int rope = 0; rope < 4; ++rope)
        for (int k = 0; k + 1 < n; ++k) sticks.push_back({at(rope, k), at(rope, k + 1), -1.0f, 0.0f});
    // Hangers from each handrail down to its deck rope.
    for (int k = 2; k < n - 2; k += 2) {
        sticks.push_back({at(0, k), at(2, k), -1.0f, 0.0f});
        sticks.push_back({at(1, k), at(3, k), -1.0f, 0.0f});
    }
    b.sticks(ropes, sticks);
    must(ropes.set_particle_radius(0.02f), "set_particle_radius");
    RopeDraw rd;
    rd.body = ropes, rd.radius = 0.018f, rd.color = hex(0xc9a66b);
    for (const auto& s : sticks) rd.segments.push_back({s.a, s.b});
    b.scene().ropes.push_back(rd);
    // A plank over each segment, each of its four particles joined to the two
    // ends of the segment on its side: eight joints hold it square.
    const Vec3 half = v3(0.085f, 0.02f, 0.42f);
    const Color plank_color = hex(0x8c5a32);
    for (int k = 0; k + 1 < n; ++k) {
        const Vec3 a0 = points[at(0, k)], a1 = points[at(0, k + 1)], b0 = points[at(1, k)], b1 = points[at(1, k + 1)];
        const Vec3 along = normalize(a1 - a0);
        sinew::RigidDef def = box_def(0.25f * (a0 + a1 + b0 + b1) + v3(0, 0.035f, 0), rot_z(std::atan2(along.y, along.x)),
                                      half, 1.5f);
        // Rough boards: what lands on them stays (a pair's friction is the geometric mean).
        def.friction = 0.9f;
        sinew::Rigid plank = b.rigid(def, k % 2 == 0 ? plank_color : scale(plank_color, 1.15f));
        const std::vector<Vec3> corners = must(plank.read_positions(), "read_positions");
        for (std::uint32_t i = 0; i < corners.size(); ++i) {
            const int rope = corners[i].z < 0.0f ? 0 : 1;
            b.joint(plank, i, ropes, at(rope, k));
            b.joint(plank, i, ropes, at(rope, k + 1));
        }
    }
    // Two crates dropped onto the middle of the deck, flat, from 0.9 and 1.4 m
    // above it, so they land on their faces and stay between the hangers.
    struct CrateDef {
        Vec3 at, half;
        Quat turn;
        Color color;
    };
    const CrateDef crates[] = {{v3(-0.8f, 2.1f, 0.0f), v3(0.2f, 0.15f, 0.2f), rot_y(0.3f), hex(0x3d7a4a)},
                               {v3(0.5f, 2.55f, 0.0f), v3(0.15f, 0.15f, 0.15f), rot_y(0.5f), hex(0xd8b26a)}};
    for (const CrateDef& c : crates) {
        sinew::RigidDef def = box_def(c.at, c.turn, c.half, 3.0f);
        def.friction = 0.9f;
        b.rigid(def, c.color);
    }
    b.scene().outcome_frames = 150;
    b.scene().outcome = [](const Scene& s) {
        // Both crates landed on the deck and stay on it, between the rails, above the ground.
        bool ok = true;
        std::string what;
        for (std::size_t k = s.rigids.size() - 2; k < s.rigids.size(); ++k) {
            const Vec3 p = must(s.rigids[k].body.transform(), "transform").position;
            ok = ok && p.y > 0.8f && std::fabs(p.x) < 2.0f && std::fabs(p.z) < 0.42f;
            what += text("crate at (%.2f, %.2f, %.2f) ", p.x, p.y, p.z);
        }
        return Outcome{ok, what};
    };
    return b.finish({v3(1.3f, 3.1f, 4.3f), v3(0, 1.35f, 0), 45.0f}, 3.5f);
}

float hills(float x, float z) {
    return 0.35f * std::sin(1.1f * x) * std::cos(0.9f * z) + 0.18f * std::sin(1.9f * z + 0.7f * x) - 0.04f * x * x;
}

/// A triangle-mesh terrain of `cells` x `cells` over `size` metres, coloured by height.
/// Returns its lowest height.
float terrain(Builder& b, int cells, float size) {
    ShapeDraw d;
    d.shape = Shape::Mesh;
    for (int j = 0; j <= cells; ++j)
        for (int i = 0; i <= cells; ++i) {
            const float x = size * (float(i) / cells - 0.5f), z = size * (float(j) / cells - 0.5f);
            d.points.push_back(v3(x, hills(x, z), z));
        }
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            const std::uint32_t v00 = j * (cells + 1) + i, v01 = v00 + cells + 1, v11 = v01 + 1, v10 = v00 + 1;
            d.indices.insert(d.indices.end(), {v00, v01, v11, v00, v11, v10});
        }
    float floor = std::numeric_limits<float>::infinity(), top = -floor;
    for (const Vec3& p : d.points) floor = std::min(floor, p.y), top = std::max(top, p.y);
    const Color low = hex(0x4f8a44), mid = hex(0x9aa35a), high = hex(0xd8c690);
    for (const Vec3& p : d.points) {
        const float y = (p.y - floor) / (top - floor);
        d.vertex_colors.push_back(y < 0.5f ? mix(low, mid, 2.0f * y) : mix(mid, high, 2.0f * y - 1.0f));
    }
    sinew::ColliderDef def = sinew::default_collider_def();
    def.material.friction = def.material.dynamic_friction = 0.3f;
    must(b.world().create_mesh(def, d.points.data(), static_cast<std::uint32_t>(d.points.size()), d.indices.data(),
                               static_cast<std::uint32_t>(d.indices.size())),
         "mesh collider");
    b.scene().shapes.push_back(std::move(d));
    return floor;
}

std::unique_ptr<Scene> chain(const Settings& set) {
    Builder b("chain", "chains with collision sticks falling on a triangle-mesh terrain", set);
    const float floor = terrain(b, 40, 8.0f);
    b.ground(floor);
    // Three chains of 40 links of 7 cm, dropped one after another in arcs,
    // on the slopes above the basin at x = -1.8 (so they stay in view).
    const std::uint32_t links = 40;
    const float link = 0.07f, radius = 0.03f;
    const Color colors[3] = {hex(0xa4abb4), hex(0xd1a72e), hex(0xb8613a)};
    const float places[3][5] = {{-0.6f, -0.5f, 0.3f, 1.2f, 0}, {-0.3f, 0.3f, 2.2f, 2.4f, 0}, {-0.1f, 0.8f, 4.0f, 3.6f, 0}};
    for (int c = 0; c < 3; ++c) {
        const Vec3 centre = v3(places[c][0], 0, places[c][1]);
        const float turn = places[c][2], height = places[c][3];
        std::vector<Vec3> points;
        for (std::uint32_t i = 0; i <= links; ++i) {
            const float s = (float(i) / links - 0.5f) * links * link;
            const Vec3 arc = rotate(rot_y(turn), v3(s, 0, 0.3f * std::cos(2.0f * s)));
            points.push_back(centre + arc + v3(0, height + 0.2f * std::sin(3.0f * s), 0));
        }
        sinew::Body body = must(b.world().create_particles(points.data(), nullptr, links + 1), "chain");
        std::vector<sinew::DistanceConstraint> sticks;
        std::vector<sinew::CollisionStick> capsules;
        RopeDraw rd;
        rd.body = body, rd.radius = radius, rd.color = colors[c], rd.alternate = true;
        for (std::uint32_t i = 0; i < links; ++i) {
            sticks.push_back({i, i + 1, -1.0f, 0.0f});
            capsules.push_back({i, i + 1, radius});
            rd.segments.push_back({i, i + 1});
        }
        b.sticks(body, sticks);
        must(body.set_particle_radius(radius), "set_particle_radius");
        b.collision_sticks(body, capsules);
        b.scene().ropes.push_back(rd);
    }
    b.scene().outcome_frames = 120;
    b.scene().outcome = [](const Scene& s) {
        // On the terrain (8 m square, lowest point `floor`) and in view, not through it.
        bool ok = true;
        std::string what;
        for (const RopeDraw& r : s.ropes) {
            const sinew::Bounds b = bounds_of(r.body);
            ok = ok && b.min.y > s.ground - 0.05f && std::max(std::fabs(b.min.x), std::fabs(b.max.x)) < 3.0f &&
                 std::max(std::fabs(b.min.z), std::fabs(b.max.z)) < 3.0f;
            what += text("x %.1f..%.1f z %.1f..%.1f y %.2f.. ", b.min.x, b.max.x, b.min.z, b.max.z, b.min.y);
        }
        return Outcome{ok, what};
    };
    return b.finish({v3(2.0f, 2.3f, 2.9f), v3(0, 0.3f, 0.1f), 45.0f}, 4.0f);
}

// ---------------------------------------------------------------- new scenes

/// A walk cycle in place for the humanoid's local pose (each bone in its
/// parent's frame, the root in world space), at time t, turning with `turn`.
std::vector<Transform> walk_pose(const std::vector<Transform>& rest_local, Vec3 root_rest, float t, Quat turn) {
    std::vector<Transform> pose = rest_local;
    const float phase = 2.0f * kPi * 0.9f * t;
    const float swing = 0.45f * std::sin(phase);
    // Limbs run down their local +Y with local +X = world -X: a turn about
    // local +X swings the tail forwards (+Z); knees bend about local -X.
    auto turn_bone = [&](int bone, float angle) { pose[bone].rotation = pose[bone].rotation * rot_x(angle); };
    turn_bone(11, swing);
    turn_bone(14, -swing);
    turn_bone(12, -0.7f * std::max(0.0f, std::sin(phase + 0.5f * kPi)) - 0.05f);
    turn_bone(15, -0.7f * std::max(0.0f, std::sin(phase + 1.5f * kPi)) - 0.05f);
    turn_bone(5, -0.6f * swing);
    turn_bone(8, 0.6f * swing);
    turn_bone(6, 0.35f);
    turn_bone(9, 0.35f);
    // The root bobs with each step and turns.
    pose[0].position = root_rest + v3(0, 0.02f * std::cos(2.0f * phase), 0);
    pose[0].rotation = turn * rest_local[0].rotation;
    return pose;
}

/// Each bone in its parent's frame, the root in world space.
std::vector<Transform> to_local(const std::vector<Transform>& world) {
    static const int kParent[kHumanoidBones] = {-1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9, 0, 11, 12, 0, 14, 15};
    std::vector<Transform> local(world.size());
    for (std::size_t i = 0; i < world.size(); ++i)
        local[i] = kParent[i] < 0 ? world[i] : compose(inverse(world[kParent[i]]), world[i]);
    return local;
}

/// A capsule collider that follows one bone (a proxy its clothes collide with).
struct Proxy {
    sinew::Collider collider;
    int bone;
    float half_length;
};

Transform proxy_frame(const Transform& bone, float half_length) {
    return xform(apply(bone, v3(0, half_length, 0)), bone.rotation);
}

std::unique_ptr<Scene> wardrobe(const Settings& set) {
    Builder b("wardrobe", "a cape and a skirt on a powered, animated character walking in place", set);
    b.ground();
    sinew::Ragdoll body = b.humanoid(v3(0, 0, 0), quat_identity(), 1.8f, hex(0xe9e4d8), true);
    must(body.set_collision_filter(kLayerBody, sinew::layer_default), "collision filter");
    const std::vector<Transform> rest = must(body.read_bones(), "read_bones");
    const std::vector<Transform> rest_local = to_local(rest);
    must(body.set_motor_targets(rest.data(), kHumanoidBones), "motor targets");

    // Capsules on the torso and legs that only the clothes see.
    std::vector<Proxy> proxies;
    for (int bone : {0, 1, 2, 11, 12, 14, 15}) {
        const float half_length = 0.5f * humanoid_bone_length(bone, 1.8f);
        sinew::ColliderDef def = sinew::default_collider_def();
        def.shape = SINEW_SHAPE_CAPSULE, def.radius = humanoid_bone_radius(bone, 1.8f) + 0.015f;
        def.half_height = half_length, def.transform = proxy_frame(rest[bone], half_length);
        def.layer = kLayerProxy, def.mask = kLayerCloth;
        def.material.friction = def.material.dynamic_friction = 0.2f;
        proxies.push_back({must(b.world().create_collider(def), "proxy collider"), bone, half_length});
    }

    // The cape: its top row rides the chest's frame, behind the shoulders.
    sinew::ClothGridDef cape = sinew::default_cloth_grid_def();
    cape.transform = xform(v3(-0.26f, 1.43f, -0.17f));
    cape.columns = 11, cape.rows = 19, cape.spacing = 0.052f, cape.pin_flags = 0, cape.drag = 1.5f, cape.lift = 0.5f;
    const Color red = hex(0x8e1c2c), dark = hex(0x5e111c);
    sinew::Cloth cape_cloth = b.grid(cape, [&](std::uint32_t r, std::uint32_t) { return r == 0 ? dark : red; });
    must(cape_cloth.set_collision_filter(kLayerCloth, sinew::layer_default | kLayerProxy), "collision filter");
    std::vector<std::uint32_t> top(cape.columns);
    for (std::uint32_t c = 0; c < cape.columns; ++c) top[c] = c;
    const std::uint32_t cape_frame = must(cape_cloth.attach_to_frame(top.data(), cape.columns, rest[2]), "attach");

    // The skirt: a cone of 24 x 9 vertices from the waist, its top ring on the pelvis's frame.
    const int around = 24, down = 9;
    std::vector<Vec3> vertices;
    std::vector<std::uint32_t> indices;
    std::vector<Color> colors;
    for (int r = 0; r < down; ++r) {
        const float s = float(r) / (down - 1);
        const float radius = 0.17f + 0.2f * s, y = 1.0f - 0.48f * s;
        for (int k = 0; k < around; ++k) {
            const float a = 2.0f * kPi * k / around;
            vertices.push_back(v3(radius * std::sin(a), y, radius * std::cos(a)));
            colors.push_back(r == 0 ? hex(0x1d3557) : (k / 2) % 2 == 0 ? hex(0x2a4d7a) : hex(0x335c91));
        }
    }
    for (int r = 0; r + 1 < down; ++r)
        for (int k = 0; k < around; ++k) {
            const std::uint32_t a = r * around + k, bb = r * around + (k + 1) % around;
            const std::uint32_t c = a + around, d = bb + around;
            // Counter-clockwise seen from outside: normals point out.
            indices.insert(indices.end(), {a, c, d, a, d, bb});
        }
    sinew::ClothMeshDef skirt_def = sinew::default_cloth_mesh_def();
    skirt_def.mass = 0.6f, skirt_def.thickness = 0.015f, skirt_def.tether_mode = SINEW_TETHER_NONE;
    sinew::Cloth skirt = b.mesh_cloth(skirt_def, vertices, indices, colors);
    must(skirt.set_collision_filter(kLayerCloth, sinew::layer_default | kLayerProxy), "collision filter");
    const std::vector<std::uint32_t> map = must(skirt.read_vertex_map(), "read_vertex_map");
    std::vector<std::uint32_t> waist(map.begin(), map.begin() + around);
    const std::uint32_t skirt_frame =
        must(skirt.attach_to_frame(waist.data(), static_cast<std::uint32_t>(waist.size()), rest[0]), "attach");

    b.scene().before = [=](Scene&, const Settings&, int step) mutable {
        const float t = step * kDt;
        const std::vector<Transform> pose =
            walk_pose(rest_local, rest[0].position, t + kDt, rot_y(0.9f * std::sin(0.35f * (t + kDt))));
        must(body.set_motor_targets_local(pose.data(), kHumanoidBones), "motor targets");
        // The clothes and proxies follow the simulated body (as an engine's
        // skinned attachments follow its animated skeleton).
        const std::vector<Transform> now = must(body.read_bones(), "read_bones");
        must(cape_cloth.set_frame(cape_frame, now[2]), "set_frame");
        must(skirt.set_frame(skirt_frame, now[0]), "set_frame");
        for (Proxy& p : proxies) must(p.collider.set_transform(proxy_frame(now[p.bone], p.half_length)), "proxy");
    };
    b.scene().outcome_frames = 60;
    b.scene().outcome = [](const Scene& s) {
        // The figure walks on its feet; the cape and the skirt ride it (within 1.2 m of its pelvis), off the ground.
        const Vec3 p = bone_at(s.ragdolls[0].body, 0);
        bool ok = p.y > 0.75f;
        std::string what = text("pelvis %.2f m high; ", p.y);
        for (const ClothDraw& c : s.cloths) {
            const sinew::Bounds b = bounds_of(c.cloth);
            const float off = std::max({std::fabs(b.min.x - p.x), std::fabs(b.max.x - p.x), std::fabs(b.min.z - p.z),
                                        std::fabs(b.max.z - p.z)});
            ok = ok && off < 1.2f && b.min.y > 0.05f;
            what += text("cloth %.2f m out, lowest %.2f m ", off, b.min.y);
        }
        return Outcome{ok, what};
    };
    return b.finish({v3(2.2f, 1.5f, -2.6f), v3(0, 0.95f, 0), 45.0f}, 2.5f);
}

std::unique_ptr<Scene> crowd(const Settings& set) {
    Builder b("crowd", "54 ragdolls shoved down a wide flight of stairs, row after row", set);
    b.ground();
    const int steps = 9;
    const float rise = 0.2f, run = 0.34f;
    stairs_of(b, steps, rise, run, 4.8f, 1.0f);
    const Color shirts[6] = {hex(0x3f6fb5), hex(0xb5523f), hex(0x4f9a5a), hex(0xc7a03a), hex(0x7b5aa6), hex(0x3a9aa0)};
    std::vector<sinew::Ragdoll> rows[3];
    int k = 0;
    for (int row = 0; row < 3; ++row)
        for (int lane = 0; lane < 18; ++lane, ++k) {
            const float z = -4.25f + 0.5f * lane + (row == 1 ? 0.25f : 0.0f);
            const float yaw = kHalfPi + 0.25f * std::sin(1.7f * k);
            // Rows on steps 1, 4 and 7.
            const int on = 1 + 3 * row;
            const Vec3 feet = v3((on - 0.5f) * run, (steps - on) * rise, z);
            rows[row].push_back(b.humanoid(feet, rot_y(yaw), 1.65f + 0.04f * (k % 5), shirts[k % 6]));
        }
    b.scene().before = [rows](Scene&, const Settings&, int step) mutable {
        // Row after row, from the bottom one, shoved in the back down the stairs.
        for (int row = 0; row < 3; ++row) {
            if (step != 40 * (2 - row)) continue;
            int k = 0;
            for (sinew::Ragdoll& r : rows[row]) {
                // A push high in the back and a shin kicked back: a dive, as in the stairs scene.
                const std::vector<Transform> bones = must(r.read_bones(), "read_bones");
                const float push = 45.0f + 6.0f * std::sin(2.3f * ++k);
                must(r.apply_impulse(2, bones[2].position, v3(push, 10.0f, 3.0f * std::sin(1.1f * k))), "apply_impulse");
                must(r.apply_impulse(12, bones[12].position, v3(-8.0f, 8.0f, 0.0f)), "apply_impulse");
            }
        }
    };
    b.scene().outcome_frames = 300;
    b.scene().outcome = [](const Scene& s) {
        // Down the stairs: every figure's pelvis below the top landing (1.8 m), none under the ground.
        float high = -1e9f, low = 1e9f;
        for (const RagdollDraw& r : s.ragdolls) {
            const float y = bone_at(r.body, 0).y;
            high = std::max(high, y), low = std::min(low, y);
        }
        return Outcome{high < 1.8f && low > 0.0f, text("pelvises between %.2f and %.2f m", low, high)};
    };
    return b.finish({v3(7.8f, 4.6f, 7.6f), v3(1.4f, 0.5f, 0.0f), 50.0f}, 8.0f);
}

std::unique_ptr<Scene> motors(const Settings& set) {
    Builder b("motors", "motors holding a pose against a swinging pad: force caps x0.25, x1, x4 of the panel's", set);
    b.ground();
    const float caps[3] = {0.25f, 1.0f, 4.0f};
    const Color shirts[3] = {hex(0xb5523f), hex(0x3f6fb5), hex(0x4f9a5a)};
    std::vector<sinew::Ragdoll> figures;
    std::vector<std::vector<Transform>> poses;
    std::vector<sinew::Collider> pads;
    for (int i = 0; i < 3; ++i) {
        const float x = 1.3f * (i - 1);
        sinew::Ragdoll body = b.humanoid(v3(x, 0, 0), quat_identity(), 1.8f, shirts[i], true, caps[i]);
        poses.push_back(must(body.read_bones(), "read_bones"));
        must(body.set_motor_targets(poses.back().data(), kHumanoidBones), "motor targets");
        figures.push_back(body);
        // A padded box on an arm that swings into the figure's back.
        sinew::ColliderDef def = sinew::default_collider_def();
        def.shape = SINEW_SHAPE_BOX, def.half_extents = v3(0.22f, 0.16f, 0.06f);
        def.transform = xform(v3(x, 1.25f, -0.9f));
        def.material.friction = def.material.dynamic_friction = 0.3f;
        pads.push_back(must(b.world().create_collider(def), "pad"));
        ShapeDraw d;
        d.shape = Shape::Box, d.half = def.half_extents, d.color = hex(0xd8d2c4), d.kinematic = true;
        d.collider = pads.back(), d.transform = def.transform;
        b.scene().shapes.push_back(d);
    }
    b.scene().before = [figures, poses, pads](Scene&, const Settings&, int step) mutable {
        const float t = (step + 1) * kDt;
        for (int i = 0; i < 3; ++i) {
            // A slow idle sway as the animation.
            const Quat sway = rot_z(0.04f * std::sin(1.1f * t + i));
            std::vector<Transform> pose;
            for (const Transform& p : poses[i]) pose.push_back({rotate(sway, p.position - poses[i][0].position) +
                                                                    poses[i][0].position,
                                                                sway * p.rotation});
            must(figures[i].set_motor_targets(pose.data(), kHumanoidBones), "motor targets");
            // The pad rests 0.9 m behind, sweeps in to 0.05 m behind the back and out, every 3 s.
            const float cycle = std::fmod(t, 3.0f);
            const float reach = cycle < 1.0f ? 0.5f - 0.5f * std::cos(2.0f * kPi * cycle) : 0.0f;
            const float x = 1.3f * (i - 1);
            must(pads[i].set_transform(xform(v3(x, 1.25f, -0.9f + 0.78f * reach))), "pad");
        }
    };
    b.scene().outcome_frames = 30;
    b.scene().outcome = [](const Scene& s) {
        // Every figure stays on its feet, even with its force cap at x0.25.
        const float y = lowest_pelvis(s);
        return Outcome{y > 0.75f, text("lowest pelvis %.2f m", y)};
    };
    return b.finish({v3(3.0f, 2.0f, 3.6f), v3(0, 0.9f, 0), 45.0f}, 3.0f);
}

/// Where a humanoid of `height` lying on its back is placed, its head
/// towards `turn` about the vertical from -Z, its pelvis at `pelvis` (the
/// preset's pelvis stands 0.95 m above the point between its feet at 1.8 m).
Transform lying(Vec3 pelvis, float turn, float height) {
    const Quat q = rot_y(turn) * rot_x(-kHalfPi);
    return xform(pelvis - rotate(q, v3(0, 0.95f * height / 1.8f, 0)), q);
}

/// The highest point of the scene's ragdolls, or `floor`.
float ragdolls_top(const Scene& s, float floor) {
    float top = floor;
    for (const RagdollDraw& r : s.ragdolls) top = std::max(top, must(r.body.bounds(), "bounds").max.y);
    return top;
}

std::unique_ptr<Scene> pile(const Settings& set) {
    Builder b("pile", "8 humanoids dropped one after another pile up on each other; a crate lands on top", set);
    b.ground();
    b.scene().mark_body_contacts = true;
    const Color shirts[8] = {hex(0x3f6fb5), hex(0xb5523f), hex(0x4f9a5a), hex(0xc7a03a),
                             hex(0x7b5aa6), hex(0x3a9aa0), hex(0xd0d0c8), hex(0x9a4a6a)};
    constexpr int count = 8, every = 36;  // a body each 0.6 s
    // Each lands across the one before: turned 0.8 rad further, a little off the spot.
    auto at = [](int k, float pelvis_y) {
        return lying(v3(0.04f * std::sin(1.9f * k), pelvis_y, 0.04f * std::cos(1.3f * k)), 0.8f * k - 0.4f, 1.8f);
    };
    add_humanoid(b.scene(), at(0, 0.6f), 1.8f, shirts[0]);
    b.scene().before = [at, shirts](Scene& s, const Settings&, int step) {
        const int k = step / every;
        if (step % every == 0 && k >= 1 && k < count) {
            // Its pelvis 0.3 m above the pile as it is now, so that it does not start inside it.
            add_humanoid(s, at(k, ragdolls_top(s, 0.3f) + 0.3f), 1.8f, shirts[k]);
        }
        if (step == (count - 1) * every + 60) {
            sinew::RigidDef def = box_def(v3(0.0f, ragdolls_top(s, 0.0f) + 0.6f, -0.1f), rot_y(0.5f),
                                          v3(0.3f, 0.12f, 0.22f), 10.0f);
            add_rigid(s, def, hex(0xb0813f));
        }
    };
    b.scene().outcome_frames = 150;
    b.scene().outcome = [](const Scene& s) {
        // Five bodies dropped by then (one each 0.6 s): nobody through the ground or thrown off the spot.
        bool ok = true;
        float low = 1e9f, far = 0.0f;
        for (const RagdollDraw& r : s.ragdolls) {
            const sinew::Bounds b = bounds_of(r.body);
            low = std::min(low, b.min.y);
            far = std::max({far, std::fabs(b.min.x), std::fabs(b.max.x), std::fabs(b.min.z), std::fabs(b.max.z)});
        }
        ok = low > -0.02f && far < 2.0f;
        return Outcome{ok, text("%zu bodies, lowest %.3f m, farthest %.2f m out", s.ragdolls.size(), low, far)};
    };
    return b.finish({v3(2.1f, 1.7f, 2.3f), v3(0, 0.4f, 0), 45.0f}, 2.0f);
}

std::unique_ptr<Scene> blanket(const Settings& set) {
    Builder b("blanket", "a blanket dropped over a humanoid lying on its back drapes over it", set);
    b.ground();
    b.scene().mark_body_contacts = true;
    // On its back along the X axis, head towards -X.
    add_humanoid(b.scene(), lying(v3(0, 0.14f, 0), kHalfPi, 1.8f), 1.8f, hex(0x3f6fb5));
    // Flat, 0.9 m up, from the shoulders to past the toes: rows run along +X
    // (the grid's +Z turned a quarter about Y), columns along -Z.
    sinew::ClothGridDef def = sinew::default_cloth_grid_def();
    def.plane = SINEW_GRID_PLANE_XZ;
    def.transform = xform(v3(-0.5f, 0.9f, 1.0125f), rot_y(kHalfPi));
    // Bodies meet a cloth at its vertices' balls: at the showcase's 1 cm the
    // toes (4 cm capsules, pointing up) slip between vertices 7.5 cm apart
    // and poke through; at 2 cm they tent it.
    def.columns = 28, def.rows = 24, def.spacing = 0.075f, def.pin_flags = 0, def.thickness = 0.02f;
    const Color wool = hex(0x4f7a4a), stripe = hex(0xc9b458);
    // A tartan: a stripe every eight rows and columns.
    b.grid(def, [&](std::uint32_t r, std::uint32_t c) { return r % 8 == 3 || c % 8 == 3 ? stripe : wool; });
    b.scene().outcome_frames = 90;
    b.scene().outcome = [](const Scene& s) {
        // Dropped from 0.9 m, it lies over the figure (no higher than 0.5 m) and on the ground, not under it.
        const sinew::Bounds b = bounds_of(s.cloths[0].cloth);
        return Outcome{b.max.y > 0.15f && b.max.y < 0.5f && b.min.y > -0.01f,
                       text("blanket between %.3f and %.3f m high", b.min.y, b.max.y)};
    };
    return b.finish({v3(1.0f, 1.15f, 2.3f), v3(0.3f, 0.1f, 0.1f), 45.0f}, 2.0f);
}

}  // namespace

Color humanoid_bone_color(int bone, Color shirt) {
    // Shirt on the torso and upper arms, skin on the neck, head, forearms and
    // hands, trousers on the legs, shoes on the feet.
    static const int kind[kHumanoidBones] = {0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 2, 2, 3, 2, 2, 3};
    const Color colors[4] = {shirt, hex(0xe8b48f), hex(0x3b3f4a), hex(0x5a3a28)};
    return colors[kind[bone]];
}

float humanoid_bone_length(int bone, float height) { return kBoneLength[bone] * height / 1.8f; }
float humanoid_bone_radius(int bone, float height) { return kBoneRadius[bone] * height / 1.8f; }

std::vector<sinew::Body> Scene::bodies() const {
    std::vector<sinew::Body> out;
    for (const ClothDraw& c : cloths) out.push_back(c.cloth);
    for (const RagdollDraw& r : ragdolls) out.push_back(r.body);
    for (const RigidDraw& r : rigids) out.push_back(r.body);
    for (const RopeDraw& r : ropes) out.push_back(r.body);
    return out;
}

sinew::WorldDef world_def(const Settings& s) {
    sinew::WorldDef def = sinew::default_world_def();
    def.substeps = static_cast<std::uint32_t>(s.substeps);
    def.iterations = static_cast<std::uint32_t>(s.iterations);
    def.simd_level = static_cast<std::uint32_t>(s.simd_level);
    def.worker_count = static_cast<std::uint32_t>(s.worker_count);
    if (!s.sleeping) def.sleep_speed = 0.0f;
    def.wind = s.wind;
    return def;
}

sinew::Result apply_sleep(sinew::World& world, const Settings& s) {
    const sinew::WorldDef d = sinew::default_world_def();
    return world.set_sleep(s.sleeping ? d.sleep_speed : 0.0f, d.sleep_time);
}

void apply_motors(Scene& scene, const Settings& s) {
    for (RagdollDraw& r : scene.ragdolls) {
        if (!r.powered) continue;
        must(r.body.set_motor_strength(s.motor_strength, s.motor_max_force * r.force_scale), "set_motor_strength");
    }
}

sinew::Result apply_cloth_compliance(Scene& scene, const Settings& s) {
    sinew::Result first = sinew::Result::from_code(SINEW_RESULT_OK);
    for (ClothDraw& c : scene.cloths) {
        const sinew::Result r = c.cloth.set_compliance(s.stretch_compliance, s.shear_compliance, s.bend_compliance);
        if (!r && first) first = r;
    }
    return first;
}

const std::vector<SceneEntry>& all_scenes() {
    static const std::vector<SceneEntry> scenes = {
        {"flag", "flag in gusts", flag},
        {"curtain", "curtain over a sphere and a box", curtain},
        {"stairs", "ragdoll down stairs", stairs},
        {"powered", "powered character, shoved", powered},
        {"cape", "cape in the wind", cape},
        {"stack", "shape-matched stack", stack},
        {"bridge", "rope bridge", bridge},
        {"chain", "chains on a mesh terrain", chain},
        {"wardrobe", "cape and skirt on a walking character", wardrobe},
        // Ragdolls hold at 4 substeps; 54 of them at the default 8 cost twice the frame budget.
        {"crowd", "54 ragdolls down stairs", crowd, 4},
        {"motors", "motors against a shove, force caps", motors},
        {"pile", "8 humanoids piled up, a crate on top", pile},
        {"blanket", "a blanket over a lying humanoid", blanket},
    };
    return scenes;
}

}  // namespace samples
