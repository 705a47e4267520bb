// Calls every part of bindings/cpp/sinew.hpp and checks what comes back: a
// physical number for the simulation calls, the exact code (and a message) for
// bad input. Compiled by tests/cpp_binding.rs with g++ and clang++, C++17 and
// C++20, with exceptions off (-fno-exceptions) and with SINEW_CPP_EXCEPTIONS.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "sinew.hpp"

namespace {

int g_checks = 0;
int g_failures = 0;

void check(bool ok, const char* what, int line) {
    ++g_checks;
    if (!ok) {
        ++g_failures;
        std::fprintf(stderr, "line %d: check failed: %s\n", line, what);
    }
}

void check_code(SinewResult got, const std::string& message, SinewResult want, const char* what, int line) {
    ++g_checks;
    if (got != want) {
        ++g_failures;
        std::fprintf(stderr, "line %d: %s gave %s (%s), expected %s\n", line, what, sinew::result_name(got),
                     message.c_str(), sinew::result_name(want));
    } else if (want != SINEW_RESULT_OK && message.empty()) {
        ++g_failures;
        std::fprintf(stderr, "line %d: %s failed without a message\n", line, what);
    }
}

float distance(sinew::Vec3 a, sinew::Vec3 b) {
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z));
}

}  // namespace

#define CHECK(cond) check((cond), #cond, __LINE__)

#if defined(SINEW_CPP_EXCEPTIONS)
// A failure throws sinew::Error; its code is compared.
#define EXPECT_CODE(expr, want)                                     \
    do {                                                            \
        SinewResult got_ = SINEW_RESULT_OK;                         \
        std::string message_;                                       \
        try {                                                       \
            (void)(expr);                                           \
        } catch (const sinew::Error& e) {                           \
            got_ = e.code();                                        \
            message_ = e.what();                                    \
        }                                                           \
        check_code(got_, message_, (want), #expr, __LINE__);        \
    } while (0)
#else
#define EXPECT_CODE(expr, want)                                     \
    do {                                                            \
        const auto& r_ = (expr);                                    \
        check_code(r_.code(), r_.message(), (want), #expr, __LINE__); \
    } while (0)
#endif
#define EXPECT_OK(expr) EXPECT_CODE(expr, SINEW_RESULT_OK)

static_assert(!std::is_copy_constructible<sinew::World>::value, "World is move-only");
static_assert(std::is_nothrow_move_constructible<sinew::World>::value, "World moves without throwing");
static_assert(std::is_trivially_copyable<sinew::Body>::value, "Body is a light value");
static_assert(std::is_trivially_copyable<sinew::Collider>::value, "Collider is a light value");

int main() {
    const float nan = std::numeric_limits<float>::quiet_NaN();

    // Free functions.
    CHECK(sinew::abi_version() == SINEW_ABI_VERSION);
    CHECK(std::strcmp(sinew::result_name(SINEW_RESULT_INVALID_ID), "SINEW_RESULT_INVALID_ID") == 0);
    CHECK(sinew::default_world_def().substeps > 0);

    // An empty World and a zero def are refused with codes and messages.
    sinew::World empty;
    CHECK(!empty);
    EXPECT_CODE(empty.step(1.0f / 60.0f), SINEW_RESULT_NULL_ARGUMENT);
    CHECK(sinew::last_error_message().find("NULL") != std::string::npos);
    sinew::WorldDef zero{};
    EXPECT_CODE(sinew::World::create(zero), SINEW_RESULT_INVALID_ARGUMENT);

    // Ownership moves; the moved-from handle is empty.
    auto created = sinew::World::create();
    EXPECT_OK(created);
    sinew::World first = std::move(created.value());
    CHECK(static_cast<bool>(first));
    sinew::World world = std::move(first);
    CHECK(!first && world);
    SinewWorld* raw = world.release();
    CHECK(!world && raw != nullptr);
    world.reset(raw);
    CHECK(world.get() == raw);

    EXPECT_CODE(world.step(nan), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT_OK(world.set_gravity({0.0f, -9.81f, 0.0f}));
    EXPECT_CODE(world.set_gravity({nan, 0.0f, 0.0f}), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(world.def().value().gravity.y == -9.81f);

    // A pendulum: a pinned particle and a free one 1 m away on a rigid stick.
    const sinew::Vec3 pendulum[2] = {{0.0f, 2.0f, 0.0f}, {1.0f, 2.0f, 0.0f}};
    const float inv_masses[2] = {0.0f, 1.0f};
    auto made = world.create_particles(pendulum, inv_masses, 2);
    EXPECT_OK(made);
    sinew::Body bob = made.value();
    CHECK(bob.is_valid() && bob.world() == world.get());
    CHECK(bob.particle_count().value_or(0) == 2);
    const sinew::DistanceConstraint stick{0, 1, -1.0f, 0.0f};
    EXPECT_OK(bob.add_distance_constraints(&stick, 1));
    const sinew::DistanceConstraint self_stick{1, 1, -1.0f, 0.0f};
    EXPECT_CODE(bob.add_distance_constraints(&self_stick, 1), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT_CODE(bob.set_distance_method(99), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT_OK(bob.set_distance_method(SINEW_DISTANCE_METHOD_EXACT));
    EXPECT_OK(bob.set_particle_radius(0.01f));
    EXPECT_CODE(bob.set_particle_radius(nan), SINEW_RESULT_INVALID_ARGUMENT);
    float worst = 0.0f;
    for (int frame = 0; frame < 120; ++frame) {
        EXPECT_OK(world.step(1.0f / 60.0f));
        auto now = bob.read_positions();
        worst = std::fmax(worst, std::fabs(distance(now.value()[0], now.value()[1]) - 1.0f));
    }
    std::printf("pendulum: largest length error over 2 s = %.6f m\n", static_cast<double>(worst));
    CHECK(worst < 1e-3f);
    sinew::Vec3 out[2];
    CHECK(bob.read_positions(out, 2).value_or(0) == 2);
    CHECK(out[0].x == 0.0f && out[0].y == 2.0f);  // the pin stays
    CHECK(out[1].y < 2.0f);                       // the bob fell
    EXPECT_CODE(bob.read_positions(out, 1), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(bob.read_velocities(out, 2).value_or(0) == 2);
    CHECK(bob.read_velocities().value().size() == 2);
    CHECK(out[0].x == 0.0f && out[1].y != 0.0f);

    // Teleport, shove, masses, targets.
    const sinew::Vec3 there{0.0f, 1.0f, 0.0f};
    EXPECT_OK(bob.set_positions(1, &there, 1));
    CHECK(bob.read_positions().value()[1].y == 1.0f);
    EXPECT_CODE(bob.set_positions(2, &there, 1), SINEW_RESULT_INVALID_ARGUMENT);
    const sinew::Vec3 shove{0.01f, 0.0f, 0.0f};
    EXPECT_OK(bob.move_particles(1, &shove, 1));
    CHECK(std::fabs(bob.read_positions().value()[1].x - 0.01f) < 1e-6f);
    const float heavy = 0.5f;
    EXPECT_OK(bob.set_inv_masses(1, &heavy, 1));
    EXPECT_CODE(bob.set_inv_masses(1, &nan, 1), SINEW_RESULT_INVALID_ARGUMENT);
    const sinew::Target hold{1, {0.6f, 1.2f, 0.0f}, 0.0f, 0.0f};
    EXPECT_OK(bob.set_targets(&hold, 1));
    for (int frame = 0; frame < 10; ++frame) EXPECT_OK(world.step(1.0f / 60.0f));
    CHECK(distance(bob.read_positions().value()[1], hold.position) < 1e-3f);
    EXPECT_OK(bob.clear_targets());
    const sinew::Target bad_target{7, {0.0f, 0.0f, 0.0f}, 0.0f, 0.0f};
    EXPECT_CODE(bob.set_targets(&bad_target, 1), SINEW_RESULT_INVALID_ARGUMENT);

    // Colliders.
    auto plane = world.create_plane({0.0f, 1.0f, 0.0f}, -5.0f, 0.5f);
    auto sphere = world.create_sphere({3.0f, 0.0f, 0.0f}, 0.5f, 0.5f);
    auto box = world.create_box({{5.0f, 0.0f, 0.0f}, sinew::identity_quat()}, {0.5f, 0.5f, 0.5f}, 0.5f);
    auto capsule = world.create_capsule({7.0f, 0.0f, 0.0f}, {7.0f, 1.0f, 0.0f}, 0.2f, 0.5f);
    EXPECT_OK(plane);
    EXPECT_OK(sphere);
    EXPECT_OK(box);
    EXPECT_OK(capsule);
    EXPECT_CODE(world.create_sphere({0.0f, 0.0f, 0.0f}, -1.0f, 0.5f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT_CODE(world.create_plane({0.0f, 0.0f, 0.0f}, 0.0f, 0.5f), SINEW_RESULT_INVALID_ARGUMENT);
    sinew::Collider ball = sphere.value();
    const sinew::Transform moved{{3.0f, 1.0f, 0.0f}, sinew::identity_quat()};
    EXPECT_OK(ball.set_transform(moved));
    CHECK(ball.transform().value().position.y == 1.0f);
    EXPECT_CODE(ball.set_transform({{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}}), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(world.collider(ball.id()).is_valid());
    EXPECT_OK(ball.destroy());
    CHECK(!ball.is_valid());
    EXPECT_CODE(ball.destroy(), SINEW_RESULT_INVALID_ID);
    EXPECT_CODE(ball.transform(), SINEW_RESULT_INVALID_ID);

    // Snapshots: size query, too small a buffer, a round trip, garbage.
    const std::size_t size = world.snapshot(nullptr, 0).value_or(0);
    CHECK(size > 0);
    std::vector<std::uint8_t> small(size - 1);
    EXPECT_CODE(world.snapshot(small.data(), small.size()), SINEW_RESULT_BUFFER_TOO_SMALL);
    auto image = world.snapshot();
    EXPECT_OK(image);
    CHECK(image.value().size() == size);
    const std::uint64_t before = world.state_hash().value_or(0);
    for (int frame = 0; frame < 30; ++frame) EXPECT_OK(world.step(1.0f / 60.0f));
    const std::uint64_t later = world.state_hash().value_or(0);
    CHECK(later != before);
    EXPECT_OK(world.restore(image.value()));
    CHECK(world.state_hash().value_or(1) == before);
    const std::uint8_t garbage[16] = {1, 2, 3};
    EXPECT_CODE(world.restore(garbage, sizeof garbage), SINEW_RESULT_INCOMPATIBLE);

    // Stale ids: destroyed bodies, and ids wrapped in another world.
    auto other = sinew::World::create();
    EXPECT_OK(other);
    CHECK(!other->body(bob.id()).is_valid());
    EXPECT_CODE(other->body(bob.id()).particle_count(), SINEW_RESULT_INVALID_ID);
    EXPECT_OK(bob.destroy());
    CHECK(!bob.is_valid());
    EXPECT_CODE(bob.particle_count(), SINEW_RESULT_INVALID_ID);
    EXPECT_CODE(bob.read_positions(), SINEW_RESULT_INVALID_ID);
    CHECK(sinew::last_error_message().size() > 0);

#if SINEW_CPP_HAS_SPAN
    // std::span overloads (C++20).
    std::vector<sinew::Vec3> row = {{0.0f, 0.0f, 0.0f}, {0.1f, 0.0f, 0.0f}, {0.2f, 0.0f, 0.0f}};
    auto spanned = world.create_particles(row);
    EXPECT_OK(spanned);
    const float two_masses[2] = {1.0f, 1.0f};
    EXPECT_CODE(world.create_particles(row, two_masses), SINEW_RESULT_INVALID_ARGUMENT);
    const sinew::DistanceConstraint links[2] = {{0, 1, -1.0f, 0.0f}, {1, 2, -1.0f, 0.0f}};
    EXPECT_OK(spanned->add_distance_constraints(links));
    const sinew::Target pin[1] = {{0, {0.0f, 0.0f, 0.0f}, 0.0f, 0.0f}};
    EXPECT_OK(spanned->set_targets(pin));
    EXPECT_OK(spanned->set_positions(0, std::span<const sinew::Vec3>(row)));
    EXPECT_OK(spanned->move_particles(0, std::span<const sinew::Vec3>(row).first(1)));
    EXPECT_OK(spanned->set_inv_masses(0, two_masses));
    std::vector<sinew::Vec3> back(3);
    CHECK(spanned->read_positions(std::span<sinew::Vec3>(back)).value_or(0) == 3);
    CHECK(spanned->read_velocities(std::span<sinew::Vec3>(back)).value_or(0) == 3);
    EXPECT_CODE(spanned->read_positions(std::span<sinew::Vec3>(back).first(2)), SINEW_RESULT_BUFFER_TOO_SMALL);
    std::vector<std::uint8_t> bytes(world.snapshot(nullptr, 0).value_or(0));
    CHECK(world.snapshot(std::span<std::uint8_t>(bytes)).value_or(0) == bytes.size());
    EXPECT_OK(world.restore(std::span<const std::uint8_t>(bytes)));
    std::printf("std::span overloads checked\n");
#endif

#if defined(SINEW_CPP_EXCEPTIONS)
    bool thrown = false;
    try {
        world.step(-1.0f);
    } catch (const sinew::Error& e) {
        thrown = e.code() == SINEW_RESULT_INVALID_ARGUMENT && std::string(e.what()).find("dt") != std::string::npos;
    }
    CHECK(thrown);
    std::printf("exceptions mode checked\n");
#endif

    std::printf("%d checks, %d failed\n", g_checks, g_failures);
    if (g_failures == 0) std::printf("all checks passed\n");
    return g_failures == 0 ? 0 : 1;
}
