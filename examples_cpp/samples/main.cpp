// The sinew samples app: every scene in a window with a game loop (one
// 1/60 s step per frame), mouse interaction and a settings panel; or, with
// --screenshot, N frames headless into a PNG (run it under Xvfb on a machine
// without a display).
//
//   sinew_samples [--scene NAME] [--frames N --screenshot out.png] [--width W --height H] [--panel] [--list]
//
// Controls: left-drag a body to pull it (a target with a force cap; release
// lets go), left-drag elsewhere to orbit, right-drag or shift+left-drag to
// pan, wheel to zoom, right click to throw a ball; Space pauses, N steps, R
// resets, Tab / Shift+Tab change scene, F12 saves a screenshot, Esc quits.
#include "render.hpp"
#include "scenes.hpp"

#include <GL/glew.h>
#include <SDL.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <string>
#include <thread>
#include <time.h>

using namespace samples;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kPi = 3.14159265358979f;
constexpr std::size_t kMaxBalls = 12;

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

/// CPU time of this thread, ms: what a step costs even when other processes
/// share the cores (wall time then counts their turns too). 0 where unknown.
double thread_cpu_ms() {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0) return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
#endif
    return 0.0;
}

/// SinewProfile's fields, in order (each a float, milliseconds).
constexpr const char* kStages[] = {"step",      "prepare",      "broad_phase", "predict",  "constraints", "ragdoll_contacts",
                                   "bones",     "joints",       "separations", "twists",   "contacts",    "bone_lengths",
                                   "couplings", "velocities",   "bone_motion", "motors",   "rigid_bodies", "finish"};
constexpr std::size_t kStageCount = sizeof(kStages) / sizeof(kStages[0]);
static_assert(sizeof(SinewProfile) == kStageCount * sizeof(float), "kStages lists SinewProfile's fields");

/// A setter's failure, on stderr (the panel goes on).
void report(const sinew::Result& r) {
    if (!r) std::fprintf(stderr, "%s (%s)\n", r.name(), r.message().c_str());
}

struct Options {
    std::string scene = "flag";
    int frames = -1;
    std::string screenshot;
    int width = 1280, height = 720;
    bool panel = false;
    /// Headless: render the last frame only (physics timing without the renderer's load).
    bool render_last_only = false;
    /// Headless: aim at the first body's middle particle, pull what the ray
    /// meets upwards for the first half of the frames and throw a ball along it
    /// an eighth of the frames before the end (the mouse's code path, for the tests).
    bool interact = false;
    /// World settings from the command line (-1: the scene's default).
    int substeps = -1, iterations = -1, workers = -1, simd = -1;
    /// Headless: time the step's stages (sinew_world_get_profile) and print their means.
    bool profile = false;
    bool headless() const { return !screenshot.empty() || frames >= 0; }
};

/// A running average over the last frames.
struct Average {
    std::deque<double> values;
    void add(double v) {
        values.push_back(v);
        if (values.size() > 60) values.pop_front();
    }
    double mean() const {
        double s = 0.0;
        for (double v : values) s += v;
        return values.empty() ? 0.0 : s / values.size();
    }
};

struct Grab {
    bool active = false;
    sinew::Body body;
    std::uint32_t particle = 0;
    float depth = 0.0f;  // along the view direction
    Vec3 target{};
};

struct Stats {
    std::uint32_t particles = 0, constraints = 0, contacts = 0, sleeping = 0;
    std::uint64_t recoveries = 0;
    std::uint32_t simd = 0;
};

class App {
public:
    explicit App(const Options& o) : options_(o) {}

    /// Switches to scene `index` with its preferred substeps (unless given on the command line).
    void choose(int index) {
        const SceneEntry& e = all_scenes()[index];
        settings_.substeps = options_.substeps > 0 ? options_.substeps : e.substeps;
        if (options_.iterations > 0) settings_.iterations = options_.iterations;
        // Threads per step: the cores, at most 4 (any count gives the same bits).
        const int cores = static_cast<int>(std::thread::hardware_concurrency());
        settings_.worker_count = options_.workers > 0 ? options_.workers : std::clamp(cores, 1, 4);
        if (options_.simd >= 0) settings_.simd_level = options_.simd;
        load(index);
    }

    /// (Re)builds scene `index` with the current settings.
    bool load(int index) {
        scene_index_ = index;
        const SceneEntry& e = all_scenes()[index];
        scene_ = e.build(settings_);
        apply_motors(*scene_, settings_);
        step_ = 0;
        grab_ = Grab{};
        yaw_ = std::atan2(scene_->camera.eye.x - scene_->camera.target.x, scene_->camera.eye.z - scene_->camera.target.z);
        const Vec3 d = scene_->camera.eye - scene_->camera.target;
        distance_ = length(d);
        pitch_ = std::asin(d.y / distance_);
        target_ = scene_->camera.target;
        statics_dirty_ = true;
        applied_wind_ = settings_.wind;
        return true;
    }

    int find_scene(const std::string& name) const {
        for (std::size_t i = 0; i < all_scenes().size(); ++i)
            if (name == all_scenes()[i].name) return static_cast<int>(i);
        return -1;
    }

    View view(int width, int height) const {
        const Vec3 offset = v3(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
        return View{target_ + offset * distance_, target_, scene_->camera.fov_deg, width, height};
    }

    /// The world-space ray through window pixel (x, y).
    Vec3 ray(const View& v, float x, float y) const {
        const Vec3 f = normalize(v.target - v.eye), s = normalize(cross(f, v3(0, 1, 0))), u = cross(s, f);
        const float t = std::tan(0.5f * v.fov_deg * kPi / 180.0f), aspect = float(v.width) / v.height;
        const float nx = 2.0f * x / v.width - 1.0f, ny = 1.0f - 2.0f * y / v.height;
        return normalize(f + s * (nx * t * aspect) + u * (ny * t));
    }

    /// One frame of the game: the scene's inputs, the user's pull, one step.
    void step() {
        if (scene_->before) scene_->before(*scene_, settings_, step_);
        if (settings_.wind.x != applied_wind_.x || settings_.wind.y != applied_wind_.y ||
            settings_.wind.z != applied_wind_.z) {
            (void)scene_->world.set_wind(settings_.wind);  // scenes with gusts set their own every step
            applied_wind_ = settings_.wind;
        }
        if (grab_.active) {
            const sinew::Target t{grab_.particle, grab_.target, 0.0f, grab_force_};
            if (!grab_.body.set_targets(&t, 1)) grab_.active = false;  // the body is gone
        }
        const double t0 = now_ms(), c0 = thread_cpu_ms();
        const sinew::Result r = scene_->world.step(kDt);
        const double wall = now_ms() - t0;
        physics_ms_.add(wall);
        physics_total_ms_ += wall;
        physics_cpu_total_ms_ += thread_cpu_ms() - c0;
        physics_worst_ms_ = std::max(physics_worst_ms_, wall);
        if (!r) std::fprintf(stderr, "step failed: %s (%s)\n", r.name(), r.message().c_str());
        if (options_.profile) {
            if (auto p = scene_->world.profile()) {
                float stages[kStageCount];
                std::memcpy(stages, &*p, sizeof stages);
                for (std::size_t i = 0; i < kStageCount; ++i) profile_total_ms_[i] += stages[i];
            }
        }
        ++step_;
    }

    /// Sends the panel's world settings to the running world, each through
    /// its setter, and reads them back (sinew_world_get_def), and the cloth
    /// compliances to every cloth: true when every setter took and the world
    /// reports what was set.
    bool apply_live() {
        sinew::World& w = scene_->world;
        bool ok = true;
        auto check = [&](const sinew::Result& r) {
            report(r);
            ok = ok && static_cast<bool>(r);
        };
        check(w.set_substeps(static_cast<std::uint32_t>(settings_.substeps)));
        check(w.set_iterations(static_cast<std::uint32_t>(settings_.iterations)));
        check(w.set_simd_level(static_cast<std::uint32_t>(settings_.simd_level)));
        check(w.set_worker_count(static_cast<std::uint32_t>(settings_.worker_count)));
        check(apply_sleep(w, settings_));
        check(apply_cloth_compliance(*scene_, settings_));
        const auto d = w.def();
        return ok && d && int(d->substeps) == settings_.substeps && int(d->iterations) == settings_.iterations &&
               int(d->simd_level) == settings_.simd_level && int(d->worker_count) == settings_.worker_count &&
               (d->sleep_speed > 0.0f) == settings_.sleeping;
    }

    Stats stats() const {
        Stats s;
        for (const sinew::Body& b : scene_->bodies()) {
            s.particles += b.particle_count().value_or(0);
            s.sleeping += b.is_sleeping().value_or(false) ? 1 : 0;
        }
        s.constraints = scene_->world.constraint_count().value_or(0);
        s.contacts = scene_->world.read_contacts(nullptr, 0).value_or(0);
        s.recoveries = scene_->world.recovery_count().value_or(~0ull);
        s.simd = scene_->world.simd_level().value_or(0);
        return s;
    }

    /// Whether every position, bone and rigid transform is finite.
    bool finite() const {
        for (const sinew::Body& b : scene_->bodies()) {
            auto x = b.read_positions();
            if (!x) return false;
            for (const Vec3& p : *x)
                if (!samples::finite(p)) return false;
        }
        return true;
    }

    void build_geometry(bool draw_contacts, bool draw_bounds, bool show_sleep) {
        if (statics_dirty_) {
            statics_.clear();
            for (const ShapeDraw& d : scene_->shapes)
                if (!d.kinematic) add_shape(statics_, d, d.transform);
        }
        dynamic_.clear();
        const Color sleepy = hex(0x7f95c9);
        auto tint = [&](const sinew::Body& b, Color c) {
            return show_sleep && b.is_sleeping().value_or(false) ? mix(c, sleepy, 0.6f) : c;
        };
        for (const ShapeDraw& d : scene_->shapes)
            if (d.kinematic) add_shape(dynamic_, d, d.collider.transform().value_or(d.transform));
        for (const ClothDraw& c : scene_->cloths) {
            const std::uint32_t n = c.cloth.vertex_count().value_or(0);
            vertices_.resize(n);
            // Positions and normals straight into the vertex array (stride 36).
            if (!c.cloth.write_vertices(vertices_.data()->p, sizeof(Vertex), vertices_.data()->n, sizeof(Vertex), n))
                continue;
            for (std::uint32_t i = 0; i < n; ++i) {
                const Color col = tint(c.cloth, c.colors[i]);
                vertices_[i].c[0] = col.r, vertices_[i].c[1] = col.g, vertices_[i].c[2] = col.b;
            }
            dynamic_.indexed(vertices_.data(), c.indices.data(), c.indices.size());
        }
        for (const RagdollDraw& r : scene_->ragdolls) {
            auto bones = r.body.read_bones();
            if (!bones) continue;
            for (int i = 0; i < kHumanoidBones; ++i) {
                const Transform& t = (*bones)[i];
                const float len = humanoid_bone_length(i, r.height), rad = humanoid_bone_radius(i, r.height);
                // The capsule's ends sit half a radius inside the bone's ends, except along the feet.
                const bool foot = i == 13 || i == 16;
                const float inset = foot ? 0.0f : std::min(0.5f * rad, 0.25f * len);
                dynamic_.capsule(apply(t, v3(0, inset, 0)), apply(t, v3(0, len - inset, 0)), rad,
                                 tint(r.body, humanoid_bone_color(i, r.shirt)), 10, 3);
            }
        }
        for (const RigidDraw& r : scene_->rigids) {
            auto t = r.body.transform();
            if (!t) continue;
            if (r.shape == Shape::Sphere) {
                // A light spot on the surface, so that rolling shows.
                const Vec3 up = rotate(t->rotation, v3(0, 1, 0));
                dynamic_.sphere(t->position, r.radius, tint(r.body, r.color));
                dynamic_.sphere(t->position + up * (0.8f * r.radius), 0.3f * r.radius,
                                tint(r.body, mix(r.color, hex(0xffffff), 0.5f)));
            } else {
                dynamic_.box(*t, r.half, tint(r.body, r.color));
            }
        }
        for (const RopeDraw& r : scene_->ropes) {
            auto x = r.body.read_positions();
            if (!x) continue;
            for (std::size_t i = 0; i < r.segments.size(); ++i) {
                const Color c = r.alternate && i % 2 ? scale(r.color, 0.78f) : r.color;
                dynamic_.capsule((*x)[r.segments[i].first], (*x)[r.segments[i].second], r.radius, tint(r.body, c), 8, 2);
            }
        }
        if (draw_contacts || scene_->mark_body_contacts) {
            std::vector<sinew::Contact> contacts = scene_->world.read_contacts().value_or(std::vector<sinew::Contact>{});
            for (const sinew::Contact& c : contacts) {
                if (draw_contacts) {
                    dynamic_.line(c.point, c.point + c.normal * 0.12f, hex(0xff3b30));
                    dynamic_.line(c.point - v3(0.015f, 0, 0), c.point + v3(0.015f, 0, 0), hex(0xffd60a));
                }
                // Between bodies (other_body set): a small bead where they touch.
                if (scene_->mark_body_contacts && c.other_body.index1 != 0)
                    dynamic_.capsule(c.point, c.point, 0.016f, hex(0xff9f0a), 6, 2);
            }
        }
        if (draw_bounds)
            for (const sinew::Body& b : scene_->bodies())
                if (auto box = b.bounds()) dynamic_.wire_box(box->min, box->max, hex(0x30d158));
        if (grab_.active) {
            auto x = grab_.body.read_positions();
            if (x && grab_.particle < x->size()) dynamic_.line((*x)[grab_.particle], grab_.target, hex(0xffffff));
        }
    }

    void add_shape(Geometry& g, const ShapeDraw& d, const Transform& t) {
        switch (d.shape) {
            case Shape::Box: g.box(t, d.half, d.color); break;
            case Shape::Sphere: g.sphere(t.position, d.radius, d.color); break;
            case Shape::Capsule: {
                const Vec3 axis = rotate(t.rotation, v3(0, d.half_height, 0));
                g.capsule(t.position - axis, t.position + axis, d.radius, d.color, 16, 4);
                break;
            }
            case Shape::Mesh: {
                for (std::size_t i = 0; i + 2 < d.indices.size(); i += 3) {
                    const Vec3 a = d.points[d.indices[i]], b = d.points[d.indices[i + 1]], c = d.points[d.indices[i + 2]];
                    const Vec3 n = normalize(cross(b - a, c - a));
                    for (int k = 0; k < 3; ++k) g.vertex(d.points[d.indices[i + k]], n, d.vertex_colors[d.indices[i + k]]);
                }
                break;
            }
        }
    }

    void render(const View& v) {
        const double t0 = now_ms();
        build_geometry(draw_contacts_, draw_bounds_, show_sleep_);
        renderer_.draw(v, scene_->ground, scene_->shadow_extent, statics_, statics_dirty_, dynamic_);
        statics_dirty_ = false;
        if (options_.headless()) glFinish();  // timed to the last pixel
        const double ms = now_ms() - t0;
        render_ms_.add(ms);
        render_total_ms_ += ms;
    }

    bool throw_ball(const View& v, Vec3 dir) {
        sinew::RigidDef def = sinew::default_rigid_def();
        def.shape = SINEW_SHAPE_SPHERE, def.radius = 0.12f, def.mass = 4.0f;
        def.transform = xform(v.eye + dir * 0.6f);
        auto ball = scene_->world.create_rigid(def);
        if (!ball) return false;
        (void)ball->apply_impulse(def.transform.position, dir * (14.0f * def.mass));
        RigidDraw d;
        d.body = *ball, d.shape = Shape::Sphere, d.radius = def.radius, d.color = hex(0xe0533d);
        scene_->rigids.push_back(d);
        balls_.push_back(*ball);
        if (balls_.size() > kMaxBalls) {
            sinew::Rigid old = balls_.front();
            balls_.pop_front();
            (void)old.destroy();
            scene_->rigids.erase(std::remove_if(scene_->rigids.begin(), scene_->rigids.end(),
                                                [&](const RigidDraw& r) {
                                                    return r.body.id().index1 == old.id().index1 &&
                                                           r.body.id().generation == old.id().generation;
                                                }),
                                 scene_->rigids.end());
        }
        return true;
    }

    /// Where the ray first meets a rigid body's shape (sinew_world_raycast
    /// sees particles, sticks and cloth triangles, not rigid bodies' shapes),
    /// as a distance along the ray; the body in `out`.
    float raycast_rigids(Vec3 origin, Vec3 dir, sinew::Rigid& out) const {
        float best = std::numeric_limits<float>::infinity();
        for (const RigidDraw& r : scene_->rigids) {
            auto t = r.body.transform();
            if (!t) continue;
            float hit = std::numeric_limits<float>::infinity();
            if (r.shape == Shape::Sphere) {
                const Vec3 m = origin - t->position;
                const float b = dot(m, dir), c = dot(m, m) - r.radius * r.radius, disc = b * b - c;
                if (disc >= 0.0f && -b - std::sqrt(disc) > 0.0f) hit = -b - std::sqrt(disc);
            } else {
                // Slabs in the box's frame.
                const Quat inv = conjugate(t->rotation);
                const Vec3 o = rotate(inv, origin - t->position), d = rotate(inv, dir);
                const float lo[3] = {-r.half.x, -r.half.y, -r.half.z}, hi[3] = {r.half.x, r.half.y, r.half.z};
                const float os[3] = {o.x, o.y, o.z}, ds[3] = {d.x, d.y, d.z};
                float enter = 0.0f, leave = std::numeric_limits<float>::infinity();
                for (int k = 0; k < 3; ++k) {
                    if (std::fabs(ds[k]) < 1e-9f) {
                        if (os[k] < lo[k] || os[k] > hi[k]) enter = leave + 1.0f;
                        continue;
                    }
                    float a = (lo[k] - os[k]) / ds[k], b = (hi[k] - os[k]) / ds[k];
                    if (a > b) std::swap(a, b);
                    enter = std::max(enter, a), leave = std::min(leave, b);
                }
                if (enter <= leave) hit = enter;
            }
            if (hit < best) best = hit, out = r.body;
        }
        return best;
    }

    bool begin_grab(const View& v, Vec3 dir) {
        auto hit = scene_->world.raycast(v.eye, dir, 200.0f);
        const float body_at = hit && hit->hit ? hit->distance : std::numeric_limits<float>::infinity();
        sinew::Rigid rigid;
        const float rigid_at = raycast_rigids(v.eye, dir, rigid);
        if (!std::isfinite(body_at) && !std::isfinite(rigid_at)) return false;
        grab_.active = true;
        if (rigid_at < body_at) {
            // The rigid body's particle nearest the point hit.
            const Vec3 point = v.eye + dir * rigid_at;
            auto x = rigid.read_positions();
            if (!x || x->empty()) return grab_.active = false;
            std::size_t p = 0;
            for (std::size_t i = 1; i < x->size(); ++i)
                if (length((*x)[i] - point) < length((*x)[p] - point)) p = i;
            grab_.body = rigid;
            grab_.particle = static_cast<std::uint32_t>(p);
            grab_.target = point;
        } else {
            // The particle carrying most of the hit.
            std::uint32_t p = hit->particle_a;
            if (hit->particle_count > 1 && hit->weight_b > hit->weight_a) p = hit->particle_b;
            if (hit->particle_count > 2 && hit->weight_c > std::max(hit->weight_a, hit->weight_b)) p = hit->particle_c;
            grab_.body = scene_->world.body(hit->body);
            grab_.particle = p;
            grab_.target = hit->point;
        }
        grab_.depth = dot(grab_.target - v.eye, normalize(v.target - v.eye));
        return true;
    }

    void move_grab(const View& v, Vec3 dir) {
        const float along = dot(dir, normalize(v.target - v.eye));
        if (along > 1e-3f) grab_.target = v.eye + dir * (grab_.depth / along);
    }

    void end_grab() {
        if (grab_.active) (void)grab_.body.clear_targets();
        grab_.active = false;
    }

    void panel() {
        ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
        ImGui::Begin("sinew samples");
        int index = scene_index_;
        const auto& scenes = all_scenes();
        if (ImGui::BeginCombo("scene", scenes[index].name)) {
            for (std::size_t i = 0; i < scenes.size(); ++i) {
                const std::string label = std::string(scenes[i].name) + "  (" + scenes[i].title + ")";
                if (ImGui::Selectable(label.c_str(), int(i) == index)) index = static_cast<int>(i);
            }
            ImGui::EndCombo();
        }
        if (index != scene_index_) choose(index);
        ImGui::TextWrapped("%s", scene_->title.c_str());
        if (ImGui::Button(paused_ ? "Run" : "Pause")) paused_ = !paused_;
        ImGui::SameLine();
        if (ImGui::Button("Step")) single_step_ = true;
        ImGui::SameLine();
        if (ImGui::Button("Reset")) load(scene_index_);
        ImGui::SameLine();
        ImGui::Text("t = %.2f s", step_ * kDt);

        const Stats s = stats();
        if (ImGui::CollapsingHeader("Timing and counts", ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::Text("physics %.2f ms/step   render %.2f ms", physics_ms_.mean(), render_ms_.mean());
            ImGui::Text("particles %u   constraints %u", s.particles, s.constraints);
            ImGui::Text("contacts %u   sleeping bodies %u", s.contacts, s.sleeping);
            ImGui::Text("recoveries %llu   SIMD level %u", static_cast<unsigned long long>(s.recoveries), s.simd);
        }
        if (ImGui::CollapsingHeader("Live", ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::SliderFloat("wind x", &settings_.wind.x, -15.0f, 15.0f, "%.1f m/s");
            ImGui::SliderFloat("wind z", &settings_.wind.z, -15.0f, 15.0f, "%.1f m/s");
            ImGui::SliderFloat("gusts", &settings_.gust_scale, 0.0f, 3.0f, "x %.2f");
            bool motors = ImGui::SliderFloat("motor strength", &settings_.motor_strength, 0.0f, 1.0f);
            motors |= ImGui::SliderFloat("motor max force", &settings_.motor_max_force, 10.0f, 20000.0f, "%.0f N",
                                         ImGuiSliderFlags_Logarithmic);
            if (motors) apply_motors(*scene_, settings_);
            ImGui::SliderFloat("grab max force", &grab_force_, 10.0f, 5000.0f, "%.0f N", ImGuiSliderFlags_Logarithmic);
            ImGui::Checkbox("contacts", &draw_contacts_);
            ImGui::SameLine();
            ImGui::Checkbox("bounds", &draw_bounds_);
            ImGui::SameLine();
            ImGui::Checkbox("sleep", &show_sleep_);
            ImGui::Checkbox("mark contacts between bodies", &scene_->mark_body_contacts);
        }
        if (ImGui::CollapsingHeader("World (live)", ImGuiTreeNodeFlags_DefaultOpen)) {
            // Each change goes to the running world through its setter, from the next step on.
            sinew::World& w = scene_->world;
            if (ImGui::SliderInt("substeps", &settings_.substeps, 1, 32))
                report(w.set_substeps(static_cast<std::uint32_t>(settings_.substeps)));
            if (ImGui::SliderInt("iterations", &settings_.iterations, 1, 8))
                report(w.set_iterations(static_cast<std::uint32_t>(settings_.iterations)));
            const char* simd[] = {"auto", "scalar", "SSE2", "AVX2", "AVX-512"};
            if (ImGui::Combo("SIMD", &settings_.simd_level, simd, 5))
                report(w.set_simd_level(static_cast<std::uint32_t>(settings_.simd_level)));
            if (ImGui::SliderInt("workers", &settings_.worker_count, 1, 8))
                report(w.set_worker_count(static_cast<std::uint32_t>(settings_.worker_count)));
            if (ImGui::Checkbox("sleeping", &settings_.sleeping)) report(apply_sleep(w, settings_));
        }
        // Closed at first, so that the panel fits a 630-pixel-high window.
        if (ImGui::CollapsingHeader("Cloth (live)")) {
            // Each change goes to every cloth of the scene (sinew_cloth_set_compliance), from the next step on.
            bool changed = ImGui::SliderFloat("stretch compl.", &settings_.stretch_compliance, 0.0f, 1e-2f, "%.1e",
                                              ImGuiSliderFlags_Logarithmic);
            changed |= ImGui::SliderFloat("shear compl.", &settings_.shear_compliance, 0.0f, 1e-2f, "%.1e",
                                          ImGuiSliderFlags_Logarithmic);
            changed |= ImGui::SliderFloat("bend compl.", &settings_.bend_compliance, 1e-6f, 1.0f, "%.1e",
                                          ImGuiSliderFlags_Logarithmic);
            if (changed) report(apply_cloth_compliance(*scene_, settings_));
        }
        ImGui::TextDisabled("drag: pull / orbit   right: throw, pan\nwheel: zoom  space: pause  N: step  R: reset");
        ImGui::End();
    }

    /// Writes the back buffer to sinew_<scene>_<step>.png in the working folder.
    void save_window(int w, int h) {
        screenshot_ = false;
        std::vector<std::uint8_t> rgb(static_cast<std::size_t>(w) * h * 3), flipped(rgb.size());
        glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
        glReadBuffer(GL_BACK);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
        const std::size_t row = static_cast<std::size_t>(w) * 3;
        for (int y = 0; y < h; ++y) std::memcpy(&flipped[y * row], &rgb[(h - 1 - y) * row], row);
        const std::string name = "sinew_" + scene_->name + "_" + std::to_string(step_) + ".png";
        const bool ok = stbi_write_png(name.c_str(), w, h, 3, flipped.data(), w * 3) != 0;
        std::printf("%s %s\n", ok ? "saved" : "could not write", name.c_str());
        std::fflush(stdout);
    }

    /// Builds the panel `frames` times and draws the last into the bound framebuffer.
    void draw_panel(int frames) {
        for (int f = 0; f < frames; ++f) {
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplSDL2_NewFrame();
            ImGui::NewFrame();
            panel();
            ImGui::Render();
        }
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    }

    int run_headless(SDL_Window* window) {
        Offscreen target;
        if (!target.init(options_.width, options_.height, 4)) return 3;
        const int frames = std::max(options_.frames, 0);
        int rendered = 0;
        if (options_.profile) report(scene_->world.set_profiling(true));
        bool grabbed = false, thrown = false, live = true;
        const Settings initial = settings_;
        const View camera = view(options_.width, options_.height);
        // The mouse's aim: the middle particle of the scene's first body.
        auto aim = [&]() {
            const std::vector<sinew::Body> bodies = scene_->bodies();
            auto x = bodies.empty() ? sinew::Expected<std::vector<Vec3>>(std::vector<Vec3>{}) : bodies[0].read_positions();
            if (!x || x->empty()) return normalize(camera.target - camera.eye);
            return normalize((*x)[x->size() / 2] - camera.eye);
        };
        for (int f = 0; f < frames; ++f) {
            if (options_.interact) {
                if (!grabbed && f < frames / 2) grabbed = begin_grab(camera, aim());
                if (grab_.active) grab_.target = grab_.target + v3(0, 0.02f, 0);
                if (f == frames / 2) end_grab();
                // Late, so that the ball is still in flight, in view, in the last frame.
                if (f == frames - 1 - frames / 8) thrown = throw_ball(camera, aim());
                // The panel's world settings, changed live a quarter in and put back at three quarters.
                if (f == frames / 4) {
                    settings_.substeps += 1, settings_.iterations += 1, settings_.simd_level = 1;
                    settings_.worker_count = settings_.worker_count == 1 ? 2 : 1;
                    settings_.sleeping = !settings_.sleeping;
                    settings_.stretch_compliance = 1e-4f, settings_.shear_compliance = 1e-4f;
                    settings_.bend_compliance = 1e-2f;
                    live = apply_live() && live;
                }
                if (f == frames * 3 / 4) {
                    settings_ = initial;
                    live = apply_live() && live;
                }
            }
            step();
            if (options_.render_last_only && f + 1 < frames) continue;
            target.bind();
            render(view(options_.width, options_.height));
            ++rendered;
        }
        target.bind();
        if (frames == 0) render(view(options_.width, options_.height));
        target.resolve();
        // ImGui sizes an auto-fitting window on its first frame and shows it from the second.
        if (options_.panel) draw_panel(2);
        (void)window;
        const Stats s = stats();
        const bool ok = finite();
        // The scene's physical outcome, once it has run long enough for it.
        const char* outcome = "none";
        std::string outcome_what;
        if (scene_->outcome && ok) {
            if (frames >= scene_->outcome_frames) {
                const Outcome o = scene_->outcome(*scene_);
                outcome = o.ok ? "ok" : "fail";
                outcome_what = o.what;
            } else {
                outcome = "early";
            }
        }
        while (!outcome_what.empty() && outcome_what.back() == ' ') outcome_what.pop_back();
        for (char& c : outcome_what) c = c == ' ' ? '_' : c;
        std::printf(
            "scene=%s frames=%d physics_ms=%.3f physics_cpu_ms=%.3f physics_worst_ms=%.3f render_ms=%.3f "
            "particles=%u constraints=%u contacts=%u sleeping=%u recoveries=%llu finite=%d grabbed=%d thrown=%d live=%d "
            "outcome=%s outcome_frames=%d outcome_what=%s\n",
            scene_->name.c_str(), frames, frames ? physics_total_ms_ / frames : 0.0,
            frames ? physics_cpu_total_ms_ / frames : 0.0, physics_worst_ms_,
            rendered ? render_total_ms_ / rendered : 0.0, s.particles, s.constraints,
            s.contacts, s.sleeping, static_cast<unsigned long long>(s.recoveries), ok ? 1 : 0, grabbed ? 1 : 0, thrown ? 1 : 0,
            options_.interact && live ? 1 : 0, outcome, scene_->outcome_frames,
            outcome_what.empty() ? "-" : outcome_what.c_str());
        if (options_.profile && frames > 0) {
            std::printf("profile scene=%s", scene_->name.c_str());
            for (std::size_t i = 0; i < kStageCount; ++i) std::printf(" %s=%.3f", kStages[i], profile_total_ms_[i] / frames);
            std::printf("\n");
        }
        if (!options_.screenshot.empty()) {
            const std::vector<std::uint8_t> rgb = target.read();
            if (!stbi_write_png(options_.screenshot.c_str(), options_.width, options_.height, 3, rgb.data(),
                                options_.width * 3)) {
                std::fprintf(stderr, "cannot write %s\n", options_.screenshot.c_str());
                return 4;
            }
        }
        return ok && s.recoveries == 0 && std::strcmp(outcome, "fail") != 0 ? 0 : 5;
    }

    int run_window(SDL_Window* window) {
        bool quit = false, orbiting = false, panning = false;
        int last_x = 0, last_y = 0, down_x = 0, down_y = 0;
        while (!quit) {
            int w = 0, h = 0;
            SDL_GL_GetDrawableSize(window, &w, &h);
            const View v = view(w, h);
            SDL_Event e;
            while (SDL_PollEvent(&e)) {
                ImGui_ImplSDL2_ProcessEvent(&e);
                const ImGuiIO& io = ImGui::GetIO();
                if (e.type == SDL_QUIT) quit = true;
                if (e.type == SDL_KEYDOWN && !io.WantCaptureKeyboard) {
                    const SDL_Keycode k = e.key.keysym.sym;
                    const int count = static_cast<int>(all_scenes().size());
                    if (k == SDLK_ESCAPE) quit = true;
                    if (k == SDLK_SPACE) paused_ = !paused_;
                    if (k == SDLK_n) single_step_ = true;
                    if (k == SDLK_r) load(scene_index_);
                    if (k == SDLK_F12) screenshot_ = true;
                    if (k == SDLK_TAB) choose((scene_index_ + ((e.key.keysym.mod & KMOD_SHIFT) ? count - 1 : 1)) % count);
                }
                if (e.type == SDL_MOUSEBUTTONDOWN && !io.WantCaptureMouse) {
                    last_x = down_x = e.button.x, last_y = down_y = e.button.y;
                    const Vec3 dir = ray(v, float(e.button.x), float(e.button.y));
                    const bool shift = (SDL_GetModState() & KMOD_SHIFT) != 0;
                    if (e.button.button == SDL_BUTTON_LEFT && !shift && !begin_grab(v, dir)) orbiting = true;
                    if (e.button.button == SDL_BUTTON_LEFT && shift) panning = true;
                    if (e.button.button == SDL_BUTTON_RIGHT || e.button.button == SDL_BUTTON_MIDDLE) panning = true;
                }
                if (e.type == SDL_MOUSEBUTTONUP) {
                    // A right click that did not drag throws a ball.
                    if (e.button.button == SDL_BUTTON_RIGHT && std::abs(e.button.x - down_x) + std::abs(e.button.y - down_y) < 4 &&
                        !io.WantCaptureMouse)
                        throw_ball(v, ray(v, float(e.button.x), float(e.button.y)));
                    if (e.button.button == SDL_BUTTON_LEFT) end_grab();
                    orbiting = panning = false;
                }
                if (e.type == SDL_MOUSEMOTION) {
                    const int dx = e.motion.x - last_x, dy = e.motion.y - last_y;
                    last_x = e.motion.x, last_y = e.motion.y;
                    if (grab_.active) move_grab(v, ray(v, float(e.motion.x), float(e.motion.y)));
                    if (orbiting) {
                        yaw_ -= 0.008f * dx;
                        pitch_ = std::clamp(pitch_ + 0.008f * dy, -0.2f, 1.5f);
                    }
                    if (panning) {
                        const Vec3 f = normalize(v.target - v.eye), s = normalize(cross(f, v3(0, 1, 0))), u = cross(s, f);
                        const float k = 0.0016f * distance_;
                        target_ = target_ - s * (k * dx) + u * (k * dy);
                    }
                }
                if (e.type == SDL_MOUSEWHEEL && !io.WantCaptureMouse)
                    distance_ = std::clamp(distance_ * std::pow(0.9f, float(e.wheel.y)), 0.5f, 60.0f);
            }
            if (!paused_ || single_step_) step();
            single_step_ = false;
            render(view(w, h));
            draw_panel(1);
            if (screenshot_) save_window(w, h);
            SDL_GL_SwapWindow(window);
        }
        return 0;
    }

    Renderer renderer_;

private:
    Options options_;
    Settings settings_;
    std::unique_ptr<Scene> scene_;
    int scene_index_ = 0;
    int step_ = 0;
    bool paused_ = false, single_step_ = false, screenshot_ = false;
    bool draw_contacts_ = false, draw_bounds_ = false, show_sleep_ = false;
    float yaw_ = 0.0f, pitch_ = 0.3f, distance_ = 5.0f;
    Vec3 target_{};
    float grab_force_ = 600.0f;
    Grab grab_;
    Vec3 applied_wind_{};
    std::deque<sinew::Rigid> balls_;
    Geometry statics_, dynamic_;
    std::vector<Vertex> vertices_;
    bool statics_dirty_ = true;
    Average physics_ms_, render_ms_;
    double physics_total_ms_ = 0.0, physics_cpu_total_ms_ = 0.0, physics_worst_ms_ = 0.0, render_total_ms_ = 0.0;
    double profile_total_ms_[kStageCount] = {};
};

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
        const char* value = nullptr;
        if (a == "--panel") {
            o.panel = true;
        } else if (a == "--interact") {
            o.interact = true;
        } else if (a == "--profile") {
            o.profile = true;
        } else if (a == "--render-last") {
            o.render_last_only = true;
        } else if (a == "--list") {
            for (const SceneEntry& e : all_scenes()) std::printf("%-10s %s\n", e.name, e.title);
            std::exit(0);
        } else if ((a == "--scene" || a == "--frames" || a == "--screenshot" || a == "--width" || a == "--height" ||
                    a == "--substeps" || a == "--iterations" || a == "--workers" || a == "--simd") &&
                   (value = next())) {
            if (a == "--substeps") o.substeps = std::max(1, std::atoi(value));
            if (a == "--iterations") o.iterations = std::max(1, std::atoi(value));
            if (a == "--workers") o.workers = std::max(1, std::atoi(value));
            if (a == "--simd") o.simd = std::max(0, std::atoi(value));
            if (a == "--scene") o.scene = value;
            if (a == "--frames") o.frames = std::atoi(value);
            if (a == "--screenshot") o.screenshot = value;
            if (a == "--width") o.width = std::max(64, std::atoi(value));
            if (a == "--height") o.height = std::max(64, std::atoi(value));
        } else {
            std::fprintf(stderr,
                         "usage: %s [--scene NAME] [--frames N] [--screenshot out.png] [--width W] [--height H] "
                         "[--panel] [--render-last] [--interact] [--profile] [--list] [--substeps N] [--iterations N] [--workers N] [--simd 0..4]\n",
                         argv[0]);
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    if (!parse(argc, argv, options)) return 1;
    if (sinew::abi_version() != SINEW_ABI_VERSION) {
        std::fprintf(stderr, "sinew.h and the loaded library differ (ABI %u vs %u)\n", SINEW_ABI_VERSION,
                     sinew::abi_version());
        return 1;
    }
    App app(options);
    const int index = app.find_scene(options.scene);
    if (index < 0) {
        std::fprintf(stderr, "no scene %s (--list lists them)\n", options.scene.c_str());
        return 1;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        std::fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 3;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    if (!options.headless()) {
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 1);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 4);
    }
    const Uint32 flags = SDL_WINDOW_OPENGL | (options.headless() ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE);
    SDL_Window* window = SDL_CreateWindow("sinew samples", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                          options.width, options.height, flags | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!window) {
        std::fprintf(stderr, "SDL_CreateWindow: %s\n", SDL_GetError());
        return 3;
    }
    SDL_GLContext context = SDL_GL_CreateContext(window);
    if (!context) {
        std::fprintf(stderr, "an OpenGL 3.3 core context: %s\n", SDL_GetError());
        return 3;
    }
    SDL_GL_MakeCurrent(window, context);
    SDL_GL_SetSwapInterval(options.headless() ? 0 : 1);
    glewExperimental = GL_TRUE;
    const GLenum glew = glewInit();
    if (glew != GLEW_OK) {
        std::fprintf(stderr, "glewInit: %s\n", reinterpret_cast<const char*>(glewGetErrorString(glew)));
        return 3;
    }
    (void)glGetError();  // GLEW on a core context leaves GL_INVALID_ENUM behind
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().WindowRounding = 4.0f;
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.88f;
    ImGui_ImplSDL2_InitForOpenGL(window, context);
    ImGui_ImplOpenGL3_Init("#version 330 core");
    if (!app.renderer_.init()) return 3;
    app.choose(index);
    const int code = options.headless() ? app.run_headless(window) : app.run_window(window);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(context);
    SDL_DestroyWindow(window);
    SDL_Quit();
    return code;
}
