// cpp_rope.cpp: the C++ wrapper (bindings/cpp/sinew.hpp) in one page. A rope
// of 16 particles, pinned at one end, swings down from the horizontal past a
// box; halfway through, a snapshot is taken, and restoring it replays the same
// second bit for bit (equal state hashes).
//
// Build (from the repository root, after `cargo build --release`):
//   c++ -std=c++17 -Iinclude -Ibindings/cpp examples_c/cpp_rope.cpp -Ltarget/release -lsinew
//       -Wl,-rpath,$PWD/target/release -o cpp_rope && ./cpp_rope
// (one line), or through CMake: see bindings/README.md.
#include <cmath>
#include <cstdio>
#include <vector>

#include "sinew.hpp"

namespace {

constexpr std::uint32_t kParticles = 16;
constexpr float kSpacing = 0.1f;
constexpr float kDt = 1.0f / 60.0f;

// Prints a failed call and its message; returns true on failure.
bool failed(const sinew::Result& r, const char* what) {
    if (r) return false;
    std::fprintf(stderr, "%s failed: %s (%s)\n", what, r.name(), r.message().c_str());
    return true;
}

}  // namespace

int main() {
    if (sinew::abi_version() != SINEW_ABI_VERSION) {
        std::fprintf(stderr, "header and library do not match\n");
        return 1;
    }
    auto created = sinew::World::create();
    if (failed(created.result(), "World::create")) return 1;
    sinew::World world = std::move(created.value());

    std::vector<sinew::Vec3> positions;
    std::vector<float> inv_masses;
    for (std::uint32_t i = 0; i < kParticles; ++i) {
        positions.push_back({kSpacing * static_cast<float>(i), 1.0f, 0.0f});
        inv_masses.push_back(i == 0 ? 0.0f : 1.0f);  // pin the first particle
    }
    auto rope = world.create_particles(positions.data(), inv_masses.data(), kParticles);
    if (failed(rope.result(), "create_particles")) return 1;

    std::vector<sinew::DistanceConstraint> sticks;
    for (std::uint32_t i = 0; i + 1 < kParticles; ++i) sticks.push_back({i, i + 1, -1.0f, 0.0f});
#if SINEW_CPP_HAS_SPAN
    if (failed(rope->add_distance_constraints(sticks), "add_distance_constraints (span)")) return 1;
#else
    if (failed(rope->add_distance_constraints(sticks.data(), static_cast<std::uint32_t>(sticks.size())),
               "add_distance_constraints")) {
        return 1;
    }
#endif
    if (failed(rope->set_particle_radius(0.02f), "set_particle_radius")) return 1;

    sinew::Transform box_at{{0.8f, -0.3f, 0.0f}, sinew::identity_quat()};
    auto box = world.create_box(box_at, {0.2f, 0.2f, 0.2f}, 0.3f);
    if (failed(box.result(), "create_box")) return 1;

    std::vector<std::uint8_t> snapshot;
    std::uint64_t hash_first = 0;
    for (int frame = 1; frame <= 3 * 60; ++frame) {
        if (failed(world.step(kDt), "step")) return 1;
        if (frame == 60) {
            auto bytes = world.snapshot();
            if (failed(bytes.result(), "snapshot")) return 1;
            snapshot = std::move(bytes.value());
        }
        if (frame == 120) hash_first = world.state_hash().value_or(0);
    }

    auto now = rope->read_positions();
    if (failed(now.result(), "read_positions")) return 1;
    const sinew::Vec3 end = now->back();
    std::printf("after 3 s the free end is at (%+.3f, %+.3f, %+.3f)\n", end.x, end.y, end.z);

    // Rigid sticks keep their length; the rope hangs below its pin.
    float worst = 0.0f;
    for (std::size_t i = 1; i < now->size(); ++i) {
        const sinew::Vec3 a = (*now)[i - 1], b = (*now)[i];
        const float d = std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
        worst = std::fmax(worst, std::fabs(d - kSpacing));
    }
    std::printf("largest stick error: %.2e m\n", static_cast<double>(worst));
    if (!(worst < 5e-7f) || !(end.y < 1.0f)) {  // measured 6e-8 m, an ulp (the bound was 5 mm)
        std::fprintf(stderr, "the rope stretched or does not hang\n");
        return 1;
    }

    // Replay the second after the snapshot: the same bits.
    if (failed(world.restore(snapshot), "restore")) return 1;
    for (int frame = 61; frame <= 120; ++frame) {
        if (failed(world.step(kDt), "step after restore")) return 1;
    }
    const std::uint64_t hash_again = world.state_hash().value_or(1);
    if (hash_again != hash_first) {
        std::fprintf(stderr, "the replay diverged: %llx vs %llx\n", static_cast<unsigned long long>(hash_again),
                     static_cast<unsigned long long>(hash_first));
        return 1;
    }
    std::printf("ok: the rope swings rigidly and the snapshot replays bit for bit\n");
    return 0;
}
