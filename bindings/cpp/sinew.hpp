/*
 * sinew.hpp: header-only C++17 wrapper over the C API in sinew.h.
 *
 * - sinew::World owns a SinewWorld* (move-only; destroys it in its destructor).
 * - sinew::Body, and the Bodies with the calls of their kind sinew::Cloth,
 *   sinew::Ragdoll and sinew::Rigid, sinew::Collider and sinew::Joint are
 *   light values: an id plus the world pointer. They do not own anything and
 *   are valid while their World lives; a destroyed or stale id makes calls
 *   return SINEW_RESULT_INVALID_ID.
 * - Arrays are (pointer, count); with C++20's std::span (when
 *   __cpp_lib_span is defined) every array call also takes spans.
 * - No exceptions by default: calls return sinew::Result (code + message,
 *   [[nodiscard]]) or sinew::Expected<T> (a value or a Result). The message is
 *   copied from sinew_last_error_message() at the moment of failure.
 * - Define SINEW_CPP_EXCEPTIONS before including this header to have failures
 *   throw sinew::Error (a std::runtime_error carrying the code) instead; the
 *   return types stay the same (always successful), so code written for
 *   either mode compiles in both, and the results lose [[nodiscard]].
 * - Expected<T>::value() (and * and ->) on a failure never returns a made-up
 *   value, in any build mode (NDEBUG or not): it throws sinew::Error when the
 *   compiler has exceptions on, and prints the code and message to stderr and
 *   calls std::abort() when they are off (-fno-exceptions).
 * - Quaternion helpers: quat_axis_angle, quat_multiply, rotate.
 *
 * Threading, ownership and error semantics are those of the C functions
 * (see sinew.h). Compiles with -std=c++17 -Wall -Wextra -pedantic, with or
 * without -fno-exceptions (when SINEW_CPP_EXCEPTIONS is not defined).
 */
#ifndef SINEW_HPP
#define SINEW_HPP

#include "sinew.h"

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#if defined(__has_include)
#if __has_include(<version>)
#include <version>
#endif
#endif
#if defined(__cpp_lib_span) && __cpp_lib_span >= 202002L
#include <span>
#define SINEW_CPP_HAS_SPAN 1
#else
#define SINEW_CPP_HAS_SPAN 0
#endif

// Whether the compiler has exceptions on (g++/clang++ without -fno-exceptions, MSVC /EHsc).
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define SINEW_CPP_HAS_EXCEPTIONS 1
#include <stdexcept>
#else
#define SINEW_CPP_HAS_EXCEPTIONS 0
#endif

#if defined(SINEW_CPP_EXCEPTIONS)
#if !SINEW_CPP_HAS_EXCEPTIONS
#error "SINEW_CPP_EXCEPTIONS needs exceptions enabled in the compiler"
#endif
#define SINEW_CPP_NODISCARD
#else
#define SINEW_CPP_NODISCARD [[nodiscard]]
#endif

namespace sinew {

using Vec3 = ::SinewVec3;
using Quat = ::SinewQuat;
using Transform = ::SinewTransform;
/// Double precision world positions, for large worlds (the `_d` calls).
using Vec3d = ::SinewVec3d;
using Transformd = ::SinewTransformd;
using Targetd = ::SinewTargetd;
using BoneShape = ::SinewBoneShape;
using WorldDef = ::SinewWorldDef;
using DistanceConstraint = ::SinewDistanceConstraint;
using Target = ::SinewTarget;
using BodyId = ::SinewBodyId;
using ColliderId = ::SinewColliderId;
using JointId = ::SinewJointId;
using ClothGridDef = ::SinewClothGridDef;
using ClothMeshDef = ::SinewClothMeshDef;
using BoneDef = ::SinewBoneDef;
using RagdollDef = ::SinewRagdollDef;
using RigidDef = ::SinewRigidDef;
using Material = ::SinewMaterial;
using ColliderDef = ::SinewColliderDef;
using CollisionStick = ::SinewCollisionStick;
using Contact = ::SinewContact;
using RayHit = ::SinewRayHit;
using ColliderHit = ::SinewColliderHit;
using ParticleHit = ::SinewParticleHit;
/// The query results with their points in double precision (the `_d` queries).
using Contactd = ::SinewContactd;
using RayHitd = ::SinewRayHitd;
using ColliderHitd = ::SinewColliderHitd;
using ParticleHitd = ::SinewParticleHitd;

/// Every collision layer (SINEW_LAYER_ALL), the default query mask.
inline constexpr std::uint32_t layer_all = static_cast<std::uint32_t>(SINEW_LAYER_ALL);
/// The layer bodies and colliders start on (SINEW_LAYER_DEFAULT).
inline constexpr std::uint32_t layer_default = static_cast<std::uint32_t>(SINEW_LAYER_DEFAULT);

/// A world-space axis-aligned box (sinew_body_get_bounds).
struct Bounds {
    Vec3 min;
    Vec3 max;
};

/// A world-space axis-aligned box in double precision (sinew_body_get_bounds_d).
struct Boundsd {
    Vec3d min;
    Vec3d max;
};

/// The ABI version of the loaded library (compare with SINEW_ABI_VERSION).
inline std::uint32_t abi_version() noexcept { return ::sinew_abi_version(); }

/// The name of a result code, e.g. "SINEW_RESULT_INVALID_ID"; never NULL.
inline const char* result_name(SinewResult code) noexcept { return ::sinew_result_name(code); }

/// The message of the last failed sinew call on this thread ("" before any).
inline std::string last_error_message() {
    const std::size_t length = ::sinew_last_error_message(nullptr, 0);
    std::string message(length, '\0');
    if (length > 0) {
        // snprintf semantics: writes length bytes and a NUL into length + 1.
        ::sinew_last_error_message(&message[0], length + 1);
    }
    return message;
}

/// Default world settings (with the cookie sinew_world_create checks).
inline WorldDef default_world_def() noexcept { return ::sinew_default_world_def(); }

/// Default cloth grid settings (with the cookie sinew_cloth_create_grid checks).
inline ClothGridDef default_cloth_grid_def() noexcept { return ::sinew_default_cloth_grid_def(); }

/// Default cloth mesh settings: arrays NULL and counts 0, to be set.
inline ClothMeshDef default_cloth_mesh_def() noexcept { return ::sinew_default_cloth_mesh_def(); }

/// The default bone: a free ball joint, 1 kg, 5 cm thick.
inline BoneDef default_bone_def() noexcept { return ::sinew_default_bone_def(); }

/// The default ragdoll def: no bones yet, with its cookie.
inline RagdollDef default_ragdoll_def() noexcept { return ::sinew_default_ragdoll_def(); }

/// The default rigid body: a 1 kg, 1 m box carried by a tetrahedron.
inline RigidDef default_rigid_def() noexcept { return ::sinew_default_rigid_def(); }

/// The default collider: a 1 m box at the origin, friction 0.5 (static and
/// dynamic), no bounce, SINEW_COMBINE_AVERAGE, on SINEW_LAYER_DEFAULT
/// colliding with every layer; arrays NULL, heightfield cells 1 m.
inline ColliderDef default_collider_def() noexcept { return ::sinew_default_collider_def(); }

/// The identity rotation.
inline constexpr Quat identity_quat() noexcept { return Quat{0.0f, 0.0f, 0.0f, 1.0f}; }

/// The rotation by `angle` radians about `axis` (right-handed: counter-clockwise
/// seen from the tip of the axis). The axis need not be unit; a zero or
/// non-finite axis gives the identity.
inline Quat quat_axis_angle(Vec3 axis, float angle) noexcept {
    const float length = std::sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
    if (!(length > 0.0f) || !std::isfinite(length)) return identity_quat();
    const float s = std::sin(0.5f * angle) / length;
    return Quat{axis.x * s, axis.y * s, axis.z * s, std::cos(0.5f * angle)};
}

/// The Hamilton product a * b: the rotation b, then a (as in glam, Unity,
/// Godot). E.g. a bone's world rotation = parent's world rotation * local.
inline constexpr Quat quat_multiply(const Quat& a, const Quat& b) noexcept {
    return Quat{a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

/// `v` rotated by the unit quaternion `q`.
inline constexpr Vec3 rotate(const Quat& q, const Vec3& v) noexcept {
    // v' = v + 2 w (u x v) + 2 u x (u x v), u = (x, y, z).
    const Vec3 t{2.0f * (q.y * v.z - q.z * v.y), 2.0f * (q.z * v.x - q.x * v.z), 2.0f * (q.x * v.y - q.y * v.x)};
    return Vec3{v.x + q.w * t.x + (q.y * t.z - q.z * t.y), v.y + q.w * t.y + (q.z * t.x - q.x * t.z),
                v.z + q.w * t.z + (q.x * t.y - q.y * t.x)};
}

#if SINEW_CPP_HAS_EXCEPTIONS
/// A failed call: thrown by every call when SINEW_CPP_EXCEPTIONS is defined,
/// and by Expected<T>::value() on a failure whenever exceptions are on.
class Error : public std::runtime_error {
public:
    Error(SinewResult code, const std::string& message)
        : std::runtime_error(std::string(::sinew_result_name(code)) + ": " + message), code_(code) {}
    SinewResult code() const noexcept { return code_; }

private:
    SinewResult code_;
};
#endif

/// The outcome of a call: a code and, on failure, sinew's message.
class SINEW_CPP_NODISCARD Result {
public:
    Result() noexcept = default;

    /// Wraps a code returned by a C function; on failure, captures this
    /// thread's error message (and throws in SINEW_CPP_EXCEPTIONS mode).
    static Result from_code(SinewResult code) {
        if (code == SINEW_RESULT_OK) return Result();
        return failure(code, last_error_message());
    }

    /// A failure detected by the wrapper itself (e.g. a span too long for
    /// the C API's uint32_t counts).
    static Result failure(SinewResult code, std::string message) {
#if defined(SINEW_CPP_EXCEPTIONS)
        throw Error(code, message);
#else
        Result r;
        r.code_ = code;
        r.message_ = std::move(message);
        return r;
#endif
    }

    bool ok() const noexcept { return code_ == SINEW_RESULT_OK; }
    explicit operator bool() const noexcept { return ok(); }
    SinewResult code() const noexcept { return code_; }
    /// e.g. "SINEW_RESULT_NULL_ARGUMENT".
    const char* name() const noexcept { return ::sinew_result_name(code_); }
    /// sinew's message for this failure ("" on success).
    const std::string& message() const noexcept { return message_; }

private:
    SinewResult code_ = SINEW_RESULT_OK;
    std::string message_;
};

/// A value, or the Result of the call that failed to produce it.
template <class T>
class SINEW_CPP_NODISCARD Expected {
public:
    Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
    Expected(Result failure) : result_(std::move(failure)) { assert(!result_.ok()); }

    bool ok() const noexcept { return result_.ok(); }
    explicit operator bool() const noexcept { return ok(); }
    SinewResult code() const noexcept { return result_.code(); }
    const std::string& message() const noexcept { return result_.message(); }
    const Result& result() const noexcept { return result_; }

    /// The value. On a failure, in every build mode: throws sinew::Error when
    /// exceptions are on, else prints the code and message to stderr and
    /// aborts. Test ok() first to handle a failure without either.
    T& value() & {
        if (!ok()) fail();
        return value_;
    }
    const T& value() const& {
        if (!ok()) fail();
        return value_;
    }
    T&& value() && {
        if (!ok()) fail();
        return std::move(value_);
    }
    T value_or(T fallback) const { return ok() ? value_ : std::move(fallback); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

private:
    [[noreturn]] void fail() const {
#if SINEW_CPP_HAS_EXCEPTIONS
        throw Error(result_.code(), result_.message());
#else
        std::fprintf(stderr, "sinew: Expected::value() on a failed call: %s: %s\n", result_.name(),
                     result_.message().c_str());
        std::abort();
#endif
    }

    T value_{};
    Result result_;
};

namespace detail {
/// A C count from a container size; false when it does not fit uint32_t.
inline bool fits_u32(std::size_t n) noexcept { return n <= std::numeric_limits<std::uint32_t>::max(); }
inline Result too_long(const char* what) {
    return Result::failure(SINEW_RESULT_INVALID_ARGUMENT, std::string(what) + ": more than 2^32-1 elements");
}
}  // namespace detail

/// A body of a world: an id and the world it belongs to. Copyable; owns
/// nothing; valid while its World lives.
class Body {
public:
    Body() noexcept = default;
    Body(SinewWorld* world, BodyId id) noexcept : world_(world), id_(id) {}

    BodyId id() const noexcept { return id_; }
    SinewWorld* world() const noexcept { return world_; }
    /// True when the id is a live body of its world.
    bool is_valid() const noexcept { return ::sinew_body_is_valid(world_, id_) != 0; }

    /// Destroys the body in the world; copies of this value become stale.
    Result destroy() { return Result::from_code(::sinew_body_destroy(world_, id_)); }

    Expected<std::uint32_t> particle_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_body_particle_count(world_, id_, &n));
        if (!r) return r;
        return n;
    }

    /// The body's constraints, as max_constraints counts them (the humanoid: 236).
    Expected<std::uint32_t> constraint_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_body_constraint_count(world_, id_, &n));
        if (!r) return r;
        return n;
    }

    Result add_distance_constraints(const DistanceConstraint* constraints, std::uint32_t count) {
        return Result::from_code(::sinew_body_add_distance_constraints(world_, id_, constraints, count));
    }
    /// SINEW_DISTANCE_METHOD_EXACT or SINEW_DISTANCE_METHOD_SQRT_APPROX.
    Result set_distance_method(std::uint32_t method) {
        return Result::from_code(::sinew_body_set_distance_method(world_, id_, method));
    }
    Result set_particle_radius(float radius) {
        return Result::from_code(::sinew_body_set_particle_radius(world_, id_, radius));
    }
    Result set_targets(const Target* targets, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_targets(world_, id_, targets, count));
    }
    Result clear_targets() { return Result::from_code(::sinew_body_clear_targets(world_, id_)); }
    /// Teleports particles first .. first + count, keeping their velocities.
    Result set_positions(std::uint32_t first, const Vec3* positions, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_positions(world_, id_, first, positions, count));
    }
    /// Carries the whole body (particles, targets, frame pins, skin) by the rigid motion from `from`
    /// to `to` at once, nothing swept: a respawn. `velocity_mode`: SINEW_TELEPORT_KEEP_VELOCITY
    /// (turned with the motion) or SINEW_TELEPORT_ZERO_VELOCITY.
    Result teleport(const Transform& from, const Transform& to,
                    std::uint32_t velocity_mode = SINEW_TELEPORT_KEEP_VELOCITY) {
        return Result::from_code(::sinew_body_teleport(world_, id_, from, to, velocity_mode));
    }
    /// Jakobsen's motion control: moves particles now and adds offset/dt to their velocity.
    Result move_particles(std::uint32_t first, const Vec3* offsets, std::uint32_t count) {
        return Result::from_code(::sinew_body_move_particles(world_, id_, first, offsets, count));
    }
    /// Sets particles' velocities (m/s), positions unchanged.
    Result set_velocities(std::uint32_t first, const Vec3* velocities, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_velocities(world_, id_, first, velocities, count));
    }
    /// Adds forces (N) to particles for the next step only.
    Result apply_forces(std::uint32_t first, const Vec3* forces, std::uint32_t count) {
        return Result::from_code(::sinew_body_apply_forces(world_, id_, first, forces, count));
    }
    Result set_inv_masses(std::uint32_t first, const float* inv_masses, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_inv_masses(world_, id_, first, inv_masses, count));
    }

    /// Pins `count` particles to a frame the engine moves (a bone, a pole):
    /// they become kinematic and keep their current place in `frame`;
    /// set_frame moves them, interpolated across the substeps. Returns the
    /// frame's index within the body (0, 1, ...). A particle attached twice
    /// follows the later frame.
    Expected<std::uint32_t> attach_to_frame(const std::uint32_t* particles, std::uint32_t count,
                                            const Transform& frame) {
        std::uint32_t index = 0;
        Result r = Result::from_code(::sinew_body_attach_to_frame(world_, id_, particles, count, frame, &index));
        if (!r) return r;
        return index;
    }
    /// Moves frame `frame` (an index from attach_to_frame): its particles
    /// reach their points in it at the end of the next step.
    Result set_frame(std::uint32_t frame, const Transform& transform) {
        return Result::from_code(::sinew_body_set_frame(world_, id_, frame, transform));
    }

    // The `_d` calls: the same with world positions in double precision
    // (large worlds: exact however far from the origin).
    Result set_positions_d(std::uint32_t first, const Vec3d* positions, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_positions_d(world_, id_, first, positions, count));
    }
    Result set_targets_d(const Targetd* targets, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_targets_d(world_, id_, targets, count));
    }
    Expected<std::uint32_t> attach_to_frame_d(const std::uint32_t* particles, std::uint32_t count,
                                              const Transformd& frame) {
        std::uint32_t index = 0;
        Result r = Result::from_code(::sinew_body_attach_to_frame_d(world_, id_, particles, count, frame, &index));
        if (!r) return r;
        return index;
    }
    Result set_frame_d(std::uint32_t frame, const Transformd& transform) {
        return Result::from_code(::sinew_body_set_frame_d(world_, id_, frame, transform));
    }
    Result teleport_d(const Transformd& from, const Transformd& to,
                      std::uint32_t velocity_mode = SINEW_TELEPORT_KEEP_VELOCITY) {
        return Result::from_code(::sinew_body_teleport_d(world_, id_, from, to, velocity_mode));
    }
    Expected<Boundsd> bounds_d() const {
        Boundsd b{};
        Result r = Result::from_code(::sinew_body_get_bounds_d(world_, id_, &b.min, &b.max));
        if (!r) return r;
        return b;
    }
    Expected<std::uint32_t> read_positions_d(Vec3d* out, std::uint32_t capacity) const {
        return read_into(&::sinew_body_read_positions_d, out, capacity);
    }
    Expected<std::vector<Vec3d>> read_positions_d() const { return read_all(&::sinew_body_read_positions_d); }

    /// Gives the body its own surface: each collider's coefficients then meet
    /// it by that collider's combine rule (`material.combine` is ignored).
    Result set_material(const Material& material) {
        return Result::from_code(::sinew_body_set_material(world_, id_, &material));
    }
    /// Removes the body's own surface: it takes each collider's coefficients
    /// as they are (the default).
    Result clear_material() { return Result::from_code(::sinew_body_set_material(world_, id_, nullptr)); }
    /// Puts the body on the `layer` bits, colliding with colliders on the
    /// `mask` bits (a collider's own mask must hold a layer of the body too).
    /// Default: layer_default, layer_all. Wakes the body.
    Result set_collision_filter(std::uint32_t layer, std::uint32_t mask) {
        return Result::from_code(::sinew_body_set_collision_filter(world_, id_, layer, mask));
    }
    /// Lets the body pass through `bones` of `ragdoll` (indices in its bone
    /// order) while it still collides with the ragdoll's other bones: a cape
    /// joined to the shoulders ignores them and is kept off the back by the
    /// rest. Replaces the bones of that ragdoll ignored before; count 0
    /// clears them. Wakes both bodies.
    Result set_ignored_bones(BodyId ragdoll, const std::uint32_t* bones, std::uint32_t count) {
        return Result::from_code(::sinew_body_set_ignored_bones(world_, id_, ragdoll, bones, count));
    }
    /// Capsules between two particles each that collide with colliders along
    /// their whole length (a rope across a thin bar). All are checked before
    /// any is added.
    Result add_collision_sticks(const CollisionStick* sticks, std::uint32_t count) {
        return Result::from_code(::sinew_body_add_collision_sticks(world_, id_, sticks, count));
    }

    /// Whether the body (with everything joined to it) is asleep.
    Expected<bool> is_sleeping() const {
        SinewBool sleeping = 0;
        Result r = Result::from_code(::sinew_body_is_sleeping(world_, id_, &sleeping));
        if (!r) return r;
        return sleeping != 0;
    }
    /// Puts the body to sleep now (its velocities become zero) or wakes it.
    Result set_sleeping(bool sleeping) {
        return Result::from_code(::sinew_body_set_sleeping(world_, id_, sleeping ? 1u : 0u));
    }
    /// The world-space box around the particles, grown by their radius (a
    /// cloth's thickness): a mesh's culling bounds.
    Expected<Bounds> bounds() const {
        Bounds b{};
        Result r = Result::from_code(::sinew_body_get_bounds(world_, id_, &b.min, &b.max));
        if (!r) return r;
        return b;
    }

    /// Copies positions into out[0 .. capacity); returns the particle count.
    /// A too small buffer gets nothing (SINEW_RESULT_BUFFER_TOO_SMALL).
    Expected<std::uint32_t> read_positions(Vec3* out, std::uint32_t capacity) const {
        return read_into(&::sinew_body_read_positions, out, capacity);
    }
    /// All positions, in a new vector.
    Expected<std::vector<Vec3>> read_positions() const { return read_all(&::sinew_body_read_positions); }
    Expected<std::uint32_t> read_velocities(Vec3* out, std::uint32_t capacity) const {
        return read_into(&::sinew_body_read_velocities, out, capacity);
    }
    Expected<std::vector<Vec3>> read_velocities() const { return read_all(&::sinew_body_read_velocities); }

#if SINEW_CPP_HAS_SPAN
    Result add_distance_constraints(std::span<const DistanceConstraint> constraints) {
        if (!detail::fits_u32(constraints.size())) return detail::too_long("constraints");
        return add_distance_constraints(constraints.data(), static_cast<std::uint32_t>(constraints.size()));
    }
    Result set_targets(std::span<const Target> targets) {
        if (!detail::fits_u32(targets.size())) return detail::too_long("targets");
        return set_targets(targets.data(), static_cast<std::uint32_t>(targets.size()));
    }
    Result set_positions(std::uint32_t first, std::span<const Vec3> positions) {
        if (!detail::fits_u32(positions.size())) return detail::too_long("positions");
        return set_positions(first, positions.data(), static_cast<std::uint32_t>(positions.size()));
    }
    Result move_particles(std::uint32_t first, std::span<const Vec3> offsets) {
        if (!detail::fits_u32(offsets.size())) return detail::too_long("offsets");
        return move_particles(first, offsets.data(), static_cast<std::uint32_t>(offsets.size()));
    }
    Result set_inv_masses(std::uint32_t first, std::span<const float> inv_masses) {
        if (!detail::fits_u32(inv_masses.size())) return detail::too_long("inv_masses");
        return set_inv_masses(first, inv_masses.data(), static_cast<std::uint32_t>(inv_masses.size()));
    }
    Expected<std::uint32_t> attach_to_frame(std::span<const std::uint32_t> particles, const Transform& frame) {
        if (!detail::fits_u32(particles.size())) return detail::too_long("particles");
        return attach_to_frame(particles.data(), static_cast<std::uint32_t>(particles.size()), frame);
    }
    Result add_collision_sticks(std::span<const CollisionStick> sticks) {
        if (!detail::fits_u32(sticks.size())) return detail::too_long("sticks");
        return add_collision_sticks(sticks.data(), static_cast<std::uint32_t>(sticks.size()));
    }
    Expected<std::uint32_t> read_positions(std::span<Vec3> out) const {
        return read_positions(out.data(), capacity_of(out));
    }
    Expected<std::uint32_t> read_velocities(std::span<Vec3> out) const {
        return read_velocities(out.data(), capacity_of(out));
    }
#endif

protected:
    template <class T>
    using ReadFn = SinewResult (*)(const SinewWorld*, SinewBodyId, T*, std::uint32_t, std::uint32_t*);

    /// Reads into out[0 .. capacity) with one of the readback functions.
    template <class T>
    Expected<std::uint32_t> read_into(ReadFn<T> read, T* out, std::uint32_t capacity) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(read(world_, id_, out, capacity, &n));
        if (!r) return r;
        return n;
    }

    /// Reads everything with one of the readback functions, into a new vector.
    template <class T>
    Expected<std::vector<T>> read_all(ReadFn<T> read) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(read(world_, id_, nullptr, 0, &n));
        if (!r) return r;
        std::vector<T> out(n);
        r = Result::from_code(read(world_, id_, out.data(), n, &n));
        if (!r) return r;
        return out;
    }

#if SINEW_CPP_HAS_SPAN
    template <class T>
    static std::uint32_t capacity_of(std::span<T> out) noexcept {
        return detail::fits_u32(out.size()) ? static_cast<std::uint32_t>(out.size()) : 0xFFFFFFFFu;
    }
#endif

private:
    SinewWorld* world_ = nullptr;
    BodyId id_{};
};

/// A skeleton: a ragdoll definition checked and built once, shared by every
/// ragdoll made from it (World::create_ragdoll(skeleton, at)), in any world.
/// Owns one handle; move-only. Ragdolls keep the skeleton alive, so it may
/// go out of scope while they live. Immutable: any thread may use it.
class Skeleton {
public:
    /// An empty handle (no skeleton); use Skeleton::create.
    Skeleton() noexcept = default;
    /// Takes ownership of a handle from sinew_skeleton_create*.
    explicit Skeleton(SinewSkeleton* adopt) noexcept : skeleton_(adopt) {}
    ~Skeleton() { ::sinew_skeleton_destroy(skeleton_); }

    Skeleton(const Skeleton&) = delete;
    Skeleton& operator=(const Skeleton&) = delete;
    Skeleton(Skeleton&& other) noexcept : skeleton_(std::exchange(other.skeleton_, nullptr)) {}
    Skeleton& operator=(Skeleton&& other) noexcept {
        if (this != &other) ::sinew_skeleton_destroy(std::exchange(skeleton_, std::exchange(other.skeleton_, nullptr)));
        return *this;
    }

    /// Builds a skeleton (def from default_ragdoll_def(), bones set); its
    /// rest pose is what each ragdoll of it places at its own transform.
    static Expected<Skeleton> create(const RagdollDef& def) {
        SinewSkeleton* raw = nullptr;
        Result r = Result::from_code(::sinew_skeleton_create(&def, &raw));
        if (!r) return r;
        return Skeleton(raw);
    }
    /// The 17-bone humanoid preset, `height` metres tall, standing on the
    /// origin facing +Z.
    static Expected<Skeleton> humanoid(float height) {
        SinewSkeleton* raw = nullptr;
        Result r = Result::from_code(::sinew_skeleton_create_humanoid(height, &raw));
        if (!r) return r;
        return Skeleton(raw);
    }

    const SinewSkeleton* get() const noexcept { return skeleton_; }
    explicit operator bool() const noexcept { return skeleton_ != nullptr; }

    Expected<std::uint32_t> bone_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_skeleton_bone_count(skeleton_, &n));
        if (!r) return r;
        return n;
    }

private:
    SinewSkeleton* skeleton_ = nullptr;
};

/// A body of kind ragdoll: every Body call, plus the bone ones. Copyable;
/// owns nothing. The ragdoll calls on a body that is not a ragdoll return
/// SINEW_RESULT_WRONG_KIND.
class Ragdoll : public Body {
public:
    Ragdoll() noexcept = default;
    Ragdoll(SinewWorld* world, BodyId id) noexcept : Body(world, id) {}

    Expected<std::uint32_t> bone_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_ragdoll_bone_count(world(), id(), &n));
        if (!r) return r;
        return n;
    }
    /// The skeleton this ragdoll is made of, to make more of it.
    Expected<Skeleton> skeleton() const {
        SinewSkeleton* raw = nullptr;
        Result r = Result::from_code(::sinew_ragdoll_get_skeleton(world(), id(), &raw));
        if (!r) return r;
        return Skeleton(raw);
    }
    /// Each bone's world transform (head and frame), in bone order, into
    /// out[0 .. capacity); returns the bone count.
    Expected<std::uint32_t> read_bones(Transform* out, std::uint32_t capacity) const {
        return read_into(&::sinew_ragdoll_read_bones, out, capacity);
    }
    Expected<std::vector<Transform>> read_bones() const { return read_all(&::sinew_ragdoll_read_bones); }
    /// read_bones with the heads' world positions in double precision.
    Expected<std::uint32_t> read_bones_d(Transformd* out, std::uint32_t capacity) const {
        return read_into(&::sinew_ragdoll_read_bones_d, out, capacity);
    }
    Expected<std::vector<Transformd>> read_bones_d() const { return read_all(&::sinew_ragdoll_read_bones_d); }
    /// Each bone's shape (parent, head and tail particle, length, radius,
    /// mass), in bone order: its capsule runs from head to tail.
    Expected<std::vector<BoneShape>> read_bone_shapes() const {
        return read_all(&::sinew_ragdoll_read_bone_shapes);
    }
    /// The index of the first bone called `name`.
    Expected<std::uint32_t> find_bone(const char* name) const {
        std::uint32_t bone = 0;
        Result r = Result::from_code(::sinew_ragdoll_find_bone(world(), id(), name, &bone));
        if (!r) return r;
        return bone;
    }
    /// Teleports to a pose (one transform per bone); with `previous` (the
    /// pose `dt` seconds earlier) the ragdoll keeps the animation's motion.
    Result set_pose(const Transform* bones, std::uint32_t count, const Transform* previous = nullptr,
                    float dt = 0.0f) {
        return Result::from_code(::sinew_ragdoll_set_pose(world(), id(), bones, previous, count, dt));
    }
    /// set_pose with world positions in double precision.
    Result set_pose_d(const Transformd* bones, std::uint32_t count, const Transformd* previous = nullptr,
                      float dt = 0.0f) {
        return Result::from_code(::sinew_ragdoll_set_pose_d(world(), id(), bones, previous, count, dt));
    }
    /// An impulse (N s) at a world point of a bone.
    Result apply_impulse(std::uint32_t bone, const Vec3& point, const Vec3& impulse) {
        return Result::from_code(::sinew_ragdoll_apply_impulse(world(), id(), bone, point, impulse));
    }
    /// apply_impulse with the point in double precision.
    Result apply_impulse_d(std::uint32_t bone, const Vec3d& point, const Vec3& impulse) {
        return Result::from_code(::sinew_ragdoll_apply_impulse_d(world(), id(), bone, point, impulse));
    }
    /// Motors: the world-space target pose (one transform per bone), as the
    /// animation outputs it each frame.
    Result set_motor_targets(const Transform* bones, std::uint32_t count) {
        return Result::from_code(::sinew_ragdoll_set_motor_targets(world(), id(), bones, count));
    }
    /// set_motor_targets with world positions in double precision.
    Result set_motor_targets_d(const Transformd* bones, std::uint32_t count) {
        return Result::from_code(::sinew_ragdoll_set_motor_targets_d(world(), id(), bones, count));
    }
    /// set_motor_targets_local with positions in double precision (the root's in world space).
    Result set_motor_targets_local_d(const Transformd* bones, std::uint32_t count) {
        return Result::from_code(::sinew_ragdoll_set_motor_targets_local_d(world(), id(), bones, count));
    }
    /// Motors: the target pose in the animation's local space (each bone in
    /// its parent's frame, the root in world space).
    Result set_motor_targets_local(const Transform* bones, std::uint32_t count) {
        return Result::from_code(::sinew_ragdoll_set_motor_targets_local(world(), id(), bones, count));
    }
    /// Every bone's motor: strength 0 (limp) .. 1 (follows the pose),
    /// max_force in newtons, 0 = unlimited.
    Result set_motor_strength(float strength, float max_force = 0.0f) {
        return Result::from_code(::sinew_ragdoll_set_motor_strength(world(), id(), strength, max_force));
    }
    /// One bone's motor: strength, max force (N, the root's position) and
    /// max torque (N m); 0 = unlimited.
    Result set_bone_motor(std::uint32_t bone, float strength, float max_force, float max_torque) {
        return Result::from_code(::sinew_ragdoll_set_bone_motor(world(), id(), bone, strength, max_force, max_torque));
    }
    /// Root motion: whether the root's position and orientation are driven.
    Result set_motor_root_motion(bool enabled) {
        return Result::from_code(::sinew_ragdoll_set_motor_root_motion(world(), id(), enabled ? 1u : 0u));
    }
};

/// A body of kind rigid: every Body call, plus the rigid ones. Copyable;
/// owns nothing. The rigid calls on a body that is not a rigid body return
/// SINEW_RESULT_WRONG_KIND.
class Rigid : public Body {
public:
    Rigid() noexcept = default;
    Rigid(SinewWorld* world, BodyId id) noexcept : Body(world, id) {}

    /// Where the shape's local frame is now.
    Expected<Transform> transform() const {
        Transform t{};
        Result r = Result::from_code(::sinew_rigid_read_transform(world(), id(), &t));
        if (!r) return r;
        return t;
    }
    /// transform() with the position in double precision.
    Expected<Transformd> transform_d() const {
        Transformd t{};
        Result r = Result::from_code(::sinew_rigid_read_transform_d(world(), id(), &t));
        if (!r) return r;
        return t;
    }
    /// An impulse (N s) at a world point.
    Result apply_impulse(const Vec3& point, const Vec3& impulse) {
        return Result::from_code(::sinew_rigid_apply_impulse(world(), id(), point, impulse));
    }
    /// apply_impulse with the point in double precision.
    Result apply_impulse_d(const Vec3d& point, const Vec3& impulse) {
        return Result::from_code(::sinew_rigid_apply_impulse_d(world(), id(), point, impulse));
    }
};

/// A body of kind cloth: every Body call, plus the cloth ones. Copyable; owns
/// nothing. The cloth calls on a body that is not a cloth return
/// SINEW_RESULT_WRONG_KIND.
class Cloth : public Body {
public:
    Cloth() noexcept = default;
    Cloth(SinewWorld* world, BodyId id) noexcept : Body(world, id) {}

    /// Unit vertex normals, one per particle (the order of read_positions),
    /// into out[0 .. capacity); returns the particle count.
    Expected<std::uint32_t> read_normals(Vec3* out, std::uint32_t capacity) const {
        return read_into(&::sinew_cloth_read_normals, out, capacity);
    }
    Expected<std::vector<Vec3>> read_normals() const { return read_all(&::sinew_cloth_read_normals); }

    /// The number of vertices the engine gave (before welding).
    Expected<std::uint32_t> vertex_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_cloth_vertex_count(world(), id(), &n));
        if (!r) return r;
        return n;
    }
    /// The particle of each engine vertex, into out[0 .. capacity); returns the vertex count.
    Expected<std::uint32_t> read_vertex_map(std::uint32_t* out, std::uint32_t capacity) const {
        return read_into(&::sinew_cloth_read_vertex_map, out, capacity);
    }
    Expected<std::vector<std::uint32_t>> read_vertex_map() const { return read_all(&::sinew_cloth_read_vertex_map); }

    /// Writes position and normal (3 floats each) of engine vertex k at
    /// `positions + k * position_stride` and `normals + k * normal_stride`
    /// bytes; either may be NULL to skip it, no alignment is needed.
    /// Interleaved: normals = positions + 12 bytes, both strides 24. Returns
    /// the vertex count; a too small capacity (in vertices) writes nothing
    /// (SINEW_RESULT_BUFFER_TOO_SMALL). Both NULL with capacity 0 asks for the count.
    Expected<std::uint32_t> write_vertices(void* positions, std::size_t position_stride, void* normals,
                                           std::size_t normal_stride, std::uint32_t capacity) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_cloth_write_vertices(world(), id(), static_cast<std::uint8_t*>(positions),
                                                                  position_stride, static_cast<std::uint8_t*>(normals),
                                                                  normal_stride, capacity, &n));
        if (!r) return r;
        return n;
    }
    /// write_vertices with positions in double precision (3 doubles each,
    /// exact world positions; position_stride >= 24), normals 3 floats.
    /// Interleaved: normals = positions + 24 bytes, both strides 36.
    Expected<std::uint32_t> write_vertices_d(void* positions, std::size_t position_stride, void* normals,
                                             std::size_t normal_stride, std::uint32_t capacity) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_cloth_write_vertices_d(
            world(), id(), static_cast<std::uint8_t*>(positions), position_stride, static_cast<std::uint8_t*>(normals),
            normal_stride, capacity, &n));
        if (!r) return r;
        return n;
    }

    /// This cloth's own wind (m/s), added to the world's.
    Result set_wind(Vec3 wind) { return Result::from_code(::sinew_cloth_set_wind(world(), id(), wind)); }
    /// Drag and lift coefficients, >= 0.
    Result set_aerodynamics(float drag, float lift) {
        return Result::from_code(::sinew_cloth_set_aerodynamics(world(), id(), drag, lift));
    }
    /// XPBD compliances (m/N, >= 0) of the edges, a grid's diagonals and the
    /// bending, live from the next step (as if the cloth were created with them).
    Result set_compliance(float stretch, float shear, float bend) {
        return Result::from_code(::sinew_cloth_set_compliance(world(), id(), stretch, shear, bend));
    }
    /// Self-collision, and collision with other cloths that also set it.
    Result set_collision(bool self_collision, bool cloth_collision) {
        return Result::from_code(
            ::sinew_cloth_set_collision(world(), id(), self_collision ? 1u : 0u, cloth_collision ? 1u : 0u));
    }

    /// The skinned pose of a character cloth for the end of the next step,
    /// per engine vertex (before welding; count == vertex_count()): where the
    /// animation puts each vertex and the normal pointing out of the body the
    /// cloth covers. Max distances and backstops are measured from it; call
    /// it every frame after animation (the first call starts the skin there).
    Result set_skin(const Vec3* positions, const Vec3* normals, std::uint32_t count) {
        return Result::from_code(::sinew_cloth_set_skin(world(), id(), positions, normals, count));
    }
    /// set_skin with the skinned positions in double precision.
    Result set_skin_d(const Vec3d* positions, const Vec3* normals, std::uint32_t count) {
        return Result::from_code(::sinew_cloth_set_skin_d(world(), id(), positions, normals, count));
    }
    /// Per engine vertex: how far a particle may move from its skinned
    /// position (metres, >= 0; INFINITY = no limit; 0 = skinned rigidly) and,
    /// when `backstops` is not NULL, how far behind the skinned surface it may
    /// go. Needs a skin (set_skin) first; welded vertices take the smallest.
    Result set_max_distances(const float* max_distances, const float* backstops, std::uint32_t count) {
        return Result::from_code(::sinew_cloth_set_max_distances(world(), id(), max_distances, backstops, count));
    }
    /// Max distances without backstops.
    Result set_max_distances(const float* max_distances, std::uint32_t count) {
        return set_max_distances(max_distances, nullptr, count);
    }

#if SINEW_CPP_HAS_SPAN
    /// Positions and normals must be as long (one per engine vertex).
    Result set_skin(std::span<const Vec3> positions, std::span<const Vec3> normals) {
        if (!detail::fits_u32(positions.size())) return detail::too_long("positions");
        if (normals.size() != positions.size()) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT, "normals: must be as long as positions");
        }
        return set_skin(positions.data(), normals.data(), static_cast<std::uint32_t>(positions.size()));
    }
    /// Backstops empty (none) or as long as max_distances.
    Result set_max_distances(std::span<const float> max_distances, std::span<const float> backstops = {}) {
        if (!detail::fits_u32(max_distances.size())) return detail::too_long("max_distances");
        if (!backstops.empty() && backstops.size() != max_distances.size()) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT,
                                   "backstops: must be empty or as long as max_distances");
        }
        return set_max_distances(max_distances.data(), backstops.empty() ? nullptr : backstops.data(),
                                 static_cast<std::uint32_t>(max_distances.size()));
    }
    Expected<std::uint32_t> read_normals(std::span<Vec3> out) const {
        return read_normals(out.data(), capacity_of(out));
    }
    Expected<std::uint32_t> read_vertex_map(std::span<std::uint32_t> out) const {
        return read_vertex_map(out.data(), capacity_of(out));
    }
#endif
};

/// A joint between particles of two bodies: an id and its world. Copyable;
/// owns nothing; destroyed with either body.
class Joint {
public:
    Joint() noexcept = default;
    Joint(SinewWorld* world, JointId id) noexcept : world_(world), id_(id) {}

    JointId id() const noexcept { return id_; }
    SinewWorld* world() const noexcept { return world_; }
    bool is_valid() const noexcept { return ::sinew_joint_is_valid(world_, id_) != 0; }
    /// Destroys the joint; the bodies go on separately.
    Result destroy() { return Result::from_code(::sinew_joint_destroy(world_, id_)); }

private:
    SinewWorld* world_ = nullptr;
    JointId id_{};
};

/// A collider of a world: an id and the world it belongs to. Copyable; owns
/// nothing; valid while its World lives.
class Collider {
public:
    Collider() noexcept = default;
    Collider(SinewWorld* world, ColliderId id) noexcept : world_(world), id_(id) {}

    ColliderId id() const noexcept { return id_; }
    SinewWorld* world() const noexcept { return world_; }
    bool is_valid() const noexcept { return ::sinew_collider_is_valid(world_, id_) != 0; }
    Result destroy() { return Result::from_code(::sinew_collider_destroy(world_, id_)); }

    /// Places the collider's frame (kinematic colliders move with this).
    Result set_transform(const Transform& transform) {
        return Result::from_code(::sinew_collider_set_transform(world_, id_, transform));
    }
    Expected<Transform> transform() const {
        Transform t{};
        Result r = Result::from_code(::sinew_collider_get_transform(world_, id_, &t));
        if (!r) return r;
        return t;
    }
    /// set_transform and transform with the position in double precision.
    Result set_transform_d(const Transformd& transform) {
        return Result::from_code(::sinew_collider_set_transform_d(world_, id_, transform));
    }
    Expected<Transformd> transform_d() const {
        Transformd t{};
        Result r = Result::from_code(::sinew_collider_get_transform_d(world_, id_, &t));
        if (!r) return r;
        return t;
    }

    /// Changes the surface: friction, restitution, combine rule.
    Result set_material(const Material& material) {
        return Result::from_code(::sinew_collider_set_material(world_, id_, material));
    }
    Expected<Material> material() const {
        Material m{};
        Result r = Result::from_code(::sinew_collider_get_material(world_, id_, &m));
        if (!r) return r;
        return m;
    }
    /// Puts the collider on the `layer` bits, colliding with bodies on the
    /// `mask` bits (0 collides with nothing; rays still see its layer).
    Result set_filter(std::uint32_t layer, std::uint32_t mask) {
        return Result::from_code(::sinew_collider_set_filter(world_, id_, layer, mask));
    }

private:
    SinewWorld* world_ = nullptr;
    ColliderId id_{};
};

/// Owns a SinewWorld: move-only, destroys the world (and every body and
/// collider in it) when it goes out of scope.
class World {
public:
    /// An empty handle (no world); use World::create.
    World() noexcept = default;
    /// Takes ownership of a world made by sinew_world_create.
    explicit World(SinewWorld* adopt) noexcept : world_(adopt) {}
    ~World() { ::sinew_world_destroy(world_); }

    World(const World&) = delete;
    World& operator=(const World&) = delete;
    World(World&& other) noexcept : world_(other.release()) {}
    World& operator=(World&& other) noexcept {
        if (this != &other) reset(other.release());
        return *this;
    }

    /// Creates a world from settings (default_world_def() when omitted).
    static Expected<World> create(const WorldDef& def = default_world_def()) {
        SinewWorld* raw = nullptr;
        Result r = Result::from_code(::sinew_world_create(&def, &raw));
        if (!r) return r;
        return World(raw);
    }

    SinewWorld* get() const noexcept { return world_; }
    explicit operator bool() const noexcept { return world_ != nullptr; }
    /// Gives up ownership; the caller destroys the world.
    SinewWorld* release() noexcept { return std::exchange(world_, nullptr); }
    /// Destroys the owned world (if any) and takes `adopt`.
    void reset(SinewWorld* adopt = nullptr) noexcept { ::sinew_world_destroy(std::exchange(world_, adopt)); }

    Result step(float dt) { return Result::from_code(::sinew_world_step(world_, dt)); }
    Result set_gravity(Vec3 gravity) { return Result::from_code(::sinew_world_set_gravity(world_, gravity)); }
    /// Moves the world's origin to `offset`: nothing moves, every position is then relative to it.
    Result shift_origin(Vec3 offset) { return Result::from_code(::sinew_world_shift_origin(world_, offset)); }
    Result shift_origin_d(Vec3d offset) { return Result::from_code(::sinew_world_shift_origin_d(world_, offset)); }
    /// The wind every cloth feels (m/s); wakes every body.
    Result set_wind(Vec3 wind) { return Result::from_code(::sinew_world_set_wind(world_, wind)); }
    /// Substeps per step (1..=1024), from the next step on.
    Result set_substeps(std::uint32_t substeps) { return Result::from_code(::sinew_world_set_substeps(world_, substeps)); }
    /// Relaxation passes per substep (1..=1024), from the next step on.
    Result set_iterations(std::uint32_t iterations) {
        return Result::from_code(::sinew_world_set_iterations(world_, iterations));
    }
    /// When bodies fall asleep; sleep_speed 0 turns sleeping off and wakes every body.
    Result set_sleep(float sleep_speed, float sleep_time) {
        return Result::from_code(::sinew_world_set_sleep(world_, sleep_speed, sleep_time));
    }
    /// A SINEW_SIMD_* level, from the next step on (capped by the CPU's).
    Result set_simd_level(std::uint32_t level) { return Result::from_code(::sinew_world_set_simd_level(world_, level)); }
    /// Threads that may work on one step (1..=64), from the next step on.
    Result set_worker_count(std::uint32_t count) {
        return Result::from_code(::sinew_world_set_worker_count(world_, count));
    }
    /// Constraints in the world, as max_constraints counts them.
    Expected<std::uint32_t> constraint_count() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_constraint_count(world_, &n));
        if (!r) return r;
        return n;
    }
    Expected<WorldDef> def() const {
        WorldDef d{};
        Result r = Result::from_code(::sinew_world_get_def(world_, &d));
        if (!r) return r;
        return d;
    }
    Expected<std::uint64_t> state_hash() const {
        std::uint64_t h = 0;
        Result r = Result::from_code(::sinew_world_state_hash(world_, &h));
        if (!r) return r;
        return h;
    }
    /// The SIMD level the kernels run at (SINEW_SIMD_SCALAR .. SINEW_SIMD_AVX512).
    Expected<std::uint32_t> simd_level() const {
        std::uint32_t level = 0;
        Result r = Result::from_code(::sinew_world_get_simd_level(world_, &level));
        if (!r) return r;
        return level;
    }
    /// How many times a step went non-finite and was undone (0 when healthy).
    Expected<std::uint64_t> recovery_count() const {
        std::uint64_t n = 0;
        Result r = Result::from_code(::sinew_world_recovery_count(world_, &n));
        if (!r) return r;
        return n;
    }
    /// Times the stages of the coming steps (on) or stops (the default).
    Result set_profiling(bool on) { return Result::from_code(::sinew_world_set_profiling(world_, on ? 1u : 0u)); }
    /// Where the last step's time went, stage by stage, in ms (all zero when not profiling).
    Expected<SinewProfile> profile() const {
        SinewProfile p{};
        Result r = Result::from_code(::sinew_world_get_profile(world_, &p));
        if (!r) return r;
        return p;
    }

    /// Writes a snapshot into buffer[0 .. capacity); returns its size. A NULL
    /// buffer with capacity 0 asks for the size.
    Expected<std::size_t> snapshot(std::uint8_t* buffer, std::size_t capacity) const {
        std::size_t size = 0;
        Result r = Result::from_code(::sinew_world_snapshot(world_, buffer, capacity, &size));
        if (!r) return r;
        return size;
    }
    /// A snapshot in a new vector.
    Expected<std::vector<std::uint8_t>> snapshot() const {
        Expected<std::size_t> size = snapshot(nullptr, 0);
        if (!size) return size.result();
        std::vector<std::uint8_t> bytes(size.value());
        size = snapshot(bytes.data(), bytes.size());
        if (!size) return size.result();
        bytes.resize(size.value());
        return bytes;
    }
    Result restore(const std::uint8_t* bytes, std::size_t size) {
        return Result::from_code(::sinew_world_restore(world_, bytes, size));
    }
    Result restore(const std::vector<std::uint8_t>& bytes) { return restore(bytes.data(), bytes.size()); }

    /// A body of `count` particles; inv_masses NULL = all 1 (0 pins a particle).
    Expected<Body> create_particles(const Vec3* positions, const float* inv_masses, std::uint32_t count) {
        BodyId id{};
        Result r = Result::from_code(::sinew_body_create_particles(world_, positions, inv_masses, count, &id));
        if (!r) return r;
        return Body(world_, id);
    }

    // The `_d` creators: world positions in double precision (large worlds).
    Expected<Body> create_particles_d(const Vec3d* positions, const float* inv_masses, std::uint32_t count) {
        BodyId id{};
        Result r = Result::from_code(::sinew_body_create_particles_d(world_, positions, inv_masses, count, &id));
        if (!r) return r;
        return Body(world_, id);
    }
    Expected<Ragdoll> create_ragdoll_d(const Skeleton& skeleton, const Transformd& at) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create_from_skeleton_d(world_, skeleton.get(), at, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }
    /// A ragdoll from a def whose rest transforms are relative to `origin`.
    Expected<Ragdoll> create_ragdoll_d(const RagdollDef& def, Vec3d origin) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create_d(world_, &def, origin, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }
    /// def.transform.position is ignored: `position` takes its place.
    Expected<Cloth> create_cloth_d(const ClothMeshDef& def, Vec3d position) {
        BodyId id{};
        Result r = Result::from_code(::sinew_cloth_create_d(world_, &def, position, &id));
        if (!r) return r;
        return Cloth(world_, id);
    }
    Expected<Ragdoll> create_humanoid_d(const Transformd& at, float height) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create_humanoid_d(world_, at, height, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }
    /// def.transform.position is ignored: `position` takes its place.
    Expected<Rigid> create_rigid_d(const RigidDef& def, Vec3d position) {
        BodyId id{};
        Result r = Result::from_code(::sinew_rigid_create_d(world_, &def, position, &id));
        if (!r) return r;
        return Rigid(world_, id);
    }
    /// def.transform.position is ignored: `position` takes its place.
    Expected<Cloth> create_cloth_grid_d(const ClothGridDef& def, Vec3d position) {
        BodyId id{};
        Result r = Result::from_code(::sinew_cloth_create_grid_d(world_, &def, position, &id));
        if (!r) return r;
        return Cloth(world_, id);
    }
    /// The plane's frame starts at normal * offset (see sinew.h).
    Expected<Collider> create_plane_d(Vec3 normal, double offset, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_plane_d(world_, normal, offset, friction, &id), id);
    }
    Expected<Collider> create_sphere_d(Vec3d center, float radius, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_sphere_d(world_, center, radius, friction, &id), id);
    }
    Expected<Collider> create_box_d(const Transformd& transform, Vec3 half_extents, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_box_d(world_, transform, half_extents, friction, &id), id);
    }
    Expected<Collider> create_capsule_d(Vec3d a, Vec3d b, float radius, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_capsule_d(world_, a, b, radius, friction, &id), id);
    }
    /// def.transform.position is ignored: `position` takes its place.
    Expected<Collider> create_collider_d(const ColliderDef& def, Vec3d position) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_d(world_, &def, position, &id), id);
    }

    /// A ragdoll from a skeleton (def from default_ragdoll_def(), bones set).
    Expected<Ragdoll> create_ragdoll(const RagdollDef& def) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create(world_, &def, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }
    /// A ragdoll of a skeleton, its rest pose moved by `at`; it shares the
    /// skeleton with every other ragdoll of it.
    Expected<Ragdoll> create_ragdoll(const Skeleton& skeleton, const Transform& at) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create_from_skeleton(world_, skeleton.get(), at, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }
    /// The 17-bone humanoid preset (bone order and names in sinew.h), its
    /// feet on `at` (between them), `height` metres tall; its root bone is
    /// the pelvis.
    Expected<Ragdoll> create_humanoid(const Transform& at, float height) {
        BodyId id{};
        Result r = Result::from_code(::sinew_ragdoll_create_humanoid(world_, at, height, &id));
        if (!r) return r;
        return Ragdoll(world_, id);
    }

    /// A rigid body (def from default_rigid_def()).
    Expected<Rigid> create_rigid(const RigidDef& def) {
        BodyId id{};
        Result r = Result::from_code(::sinew_rigid_create(world_, &def, &id));
        if (!r) return r;
        return Rigid(world_, id);
    }
    /// Pushes every free particle within `radius` of `center` away from it
    /// by strength / d^2 m/s; returns how many were pushed.
    Expected<std::uint32_t> explode(const Vec3& center, float strength, float radius) {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_explode(world_, center, strength, radius, &n));
        if (!r) return r;
        return n;
    }
    /// explode with the centre in double precision.
    Expected<std::uint32_t> explode_d(const Vec3d& center, float strength, float radius) {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_explode_d(world_, center, strength, radius, &n));
        if (!r) return r;
        return n;
    }

    /// A rectangular cloth (def from default_cloth_grid_def()).
    Expected<Cloth> create_cloth_grid(const ClothGridDef& def) {
        BodyId id{};
        Result r = Result::from_code(::sinew_cloth_create_grid(world_, &def, &id));
        if (!r) return r;
        return Cloth(world_, id);
    }
    /// A cloth from a triangle mesh (def from default_cloth_mesh_def(), with
    /// its arrays set; they are read during the call only).
    Expected<Cloth> create_cloth(const ClothMeshDef& def) {
        BodyId id{};
        Result r = Result::from_code(::sinew_cloth_create(world_, &def, &id));
        if (!r) return r;
        return Cloth(world_, id);
    }

    /// Joins particle_a of a to particle_b of b (two-way). rest_length < 0
    /// takes their current distance; compliance 0 is rigid.
    Expected<Joint> create_joint(const Body& a, std::uint32_t particle_a, const Body& b, std::uint32_t particle_b,
                                 float rest_length = -1.0f, float compliance = 0.0f) {
        JointId id{};
        Result r = Result::from_code(
            ::sinew_joint_create(world_, a.id(), particle_a, b.id(), particle_b, rest_length, compliance, &id));
        if (!r) return r;
        return Joint(world_, id);
    }

    /// The solid half-space dot(normal, x) < offset.
    Expected<Collider> create_plane(Vec3 normal, float offset, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_plane(world_, normal, offset, friction, &id), id);
    }
    Expected<Collider> create_sphere(Vec3 center, float radius, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_sphere(world_, center, radius, friction, &id), id);
    }
    Expected<Collider> create_box(const Transform& transform, Vec3 half_extents, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_box(world_, transform, half_extents, friction, &id), id);
    }
    Expected<Collider> create_capsule(Vec3 a, Vec3 b, float radius, float friction) {
        ColliderId id{};
        return make_collider(::sinew_collider_create_capsule(world_, a, b, radius, friction, &id), id);
    }

    /// A collider of any shape, with its material and filter (def from
    /// default_collider_def(); the arrays it points to are read during the
    /// call only; a mesh's BVH is built inside it).
    Expected<Collider> create_collider(const ColliderDef& def) {
        ColliderId id{};
        return make_collider(::sinew_collider_create(world_, &def, &id), id);
    }
    /// A static, two-sided triangle mesh: `points` (local frame) and three
    /// `indices` per triangle; the rest (frame, material, filter) from def.
    Expected<Collider> create_mesh(ColliderDef def, const Vec3* points, std::uint32_t point_count,
                                   const std::uint32_t* indices, std::uint32_t index_count) {
        def.shape = SINEW_SHAPE_MESH;
        def.points = points;
        def.point_count = point_count;
        def.indices = indices;
        def.index_count = index_count;
        return create_collider(def);
    }
    /// A heightfield of `columns` x `rows` heights (row-major, vertex (c, r)
    /// at (c * def.cell_size_x, heights[r * columns + c], r * def.cell_size_z)
    /// of def's frame), solid below.
    Expected<Collider> create_heightfield(ColliderDef def, const float* heights, std::uint32_t columns,
                                          std::uint32_t rows) {
        def.shape = SINEW_SHAPE_HEIGHTFIELD;
        def.heights = heights;
        def.columns = columns;
        def.rows = rows;
        return create_collider(def);
    }
    /// The convex hull of 4..256 local points.
    Expected<Collider> create_convex(ColliderDef def, const Vec3* points, std::uint32_t count) {
        def.shape = SINEW_SHAPE_CONVEX;
        def.points = points;
        def.point_count = count;
        return create_collider(def);
    }
    /// A compound of parts (defs of other shapes, their transforms relative
    /// to def's frame; def's material and filter apply to all of them).
    Expected<Collider> create_compound(ColliderDef def, const ColliderDef* children, std::uint32_t count) {
        def.shape = SINEW_SHAPE_COMPOUND;
        def.children = children;
        def.child_count = count;
        return create_collider(def);
    }

    /// The contacts of the last step (one per particle that touched a
    /// collider, body order then particle order) into out[0 .. capacity);
    /// returns their count. nullptr with capacity 0 asks for the count; a too
    /// small buffer gets nothing (SINEW_RESULT_BUFFER_TOO_SMALL).
    Expected<std::uint32_t> read_contacts(Contact* out, std::uint32_t capacity) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_read_contacts(world_, out, capacity, &n));
        if (!r) return r;
        return n;
    }
    /// All contacts of the last step, in a new vector.
    Expected<std::vector<Contact>> read_contacts() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_read_contacts(world_, nullptr, 0, &n));
        if (!r) return r;
        std::vector<Contact> out;
        for (;;) {
            out.resize(n);
            const SinewResult code = ::sinew_world_read_contacts(world_, out.data(), n, &n);
            if (code == SINEW_RESULT_BUFFER_TOO_SMALL) continue;  // a step came in between: n is the new count
            r = Result::from_code(code);
            if (!r) return r;
            out.resize(n);
            return out;
        }
    }

    /// Casts a ray against the bodies on a layer in `mask` (particles as
    /// spheres of their radius, collision sticks, cloth triangles): the
    /// nearest hit within max_distance, with the particles and weights that
    /// carry it. A miss is not an error: the hit's `hit` is 0.
    Expected<RayHit> raycast(Vec3 origin, Vec3 direction, float max_distance = std::numeric_limits<float>::infinity(),
                             std::uint32_t mask = layer_all) const {
        RayHit hit{};
        Result r = Result::from_code(::sinew_world_raycast(world_, origin, direction, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// Casts a ray against the colliders on a layer in `mask`, where they are
    /// now; `hit` 0 on a miss.
    Expected<ColliderHit> raycast_colliders(Vec3 origin, Vec3 direction,
                                            float max_distance = std::numeric_limits<float>::infinity(),
                                            std::uint32_t mask = layer_all) const {
        ColliderHit hit{};
        Result r =
            Result::from_code(::sinew_world_raycast_colliders(world_, origin, direction, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// The particle nearest `point` within max_distance among bodies on a
    /// layer in `mask` (picking); `hit` 0 when none is that close.
    Expected<ParticleHit> nearest_particle(Vec3 point, float max_distance = std::numeric_limits<float>::infinity(),
                                           std::uint32_t mask = layer_all) const {
        ParticleHit hit{};
        Result r = Result::from_code(::sinew_world_nearest_particle(world_, point, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// An impulse (N s) at a raycast() hit: spread over its particles by
    /// their weights, so the body's momentum grows by `impulse`. Wakes it.
    Result apply_hit_impulse(const RayHit& hit, Vec3 impulse) {
        return Result::from_code(::sinew_body_apply_hit_impulse(world_, &hit, impulse));
    }

    // The `_d` queries: points in double precision (large worlds), each
    // query met in the frame of what it meets, so it answers 10 km out as
    // at the origin.

    /// read_contacts with each point in double precision (exact).
    Expected<std::uint32_t> read_contacts_d(Contactd* out, std::uint32_t capacity) const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_read_contacts_d(world_, out, capacity, &n));
        if (!r) return r;
        return n;
    }
    /// All contacts of the last step with their points in double precision.
    Expected<std::vector<Contactd>> read_contacts_d() const {
        std::uint32_t n = 0;
        Result r = Result::from_code(::sinew_world_read_contacts_d(world_, nullptr, 0, &n));
        if (!r) return r;
        std::vector<Contactd> out;
        for (;;) {
            out.resize(n);
            const SinewResult code = ::sinew_world_read_contacts_d(world_, out.data(), n, &n);
            if (code == SINEW_RESULT_BUFFER_TOO_SMALL) continue;  // a step came in between: n is the new count
            r = Result::from_code(code);
            if (!r) return r;
            out.resize(n);
            return out;
        }
    }
    /// raycast from an origin in double precision; the hit point too.
    Expected<RayHitd> raycast_d(Vec3d origin, Vec3 direction,
                                float max_distance = std::numeric_limits<float>::infinity(),
                                std::uint32_t mask = layer_all) const {
        RayHitd hit{};
        Result r = Result::from_code(::sinew_world_raycast_d(world_, origin, direction, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// raycast_colliders from an origin in double precision; the hit point too.
    Expected<ColliderHitd> raycast_colliders_d(Vec3d origin, Vec3 direction,
                                               float max_distance = std::numeric_limits<float>::infinity(),
                                               std::uint32_t mask = layer_all) const {
        ColliderHitd hit{};
        Result r =
            Result::from_code(::sinew_world_raycast_colliders_d(world_, origin, direction, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// nearest_particle to a point in double precision; the particle's exact place.
    Expected<ParticleHitd> nearest_particle_d(Vec3d point,
                                              float max_distance = std::numeric_limits<float>::infinity(),
                                              std::uint32_t mask = layer_all) const {
        ParticleHitd hit{};
        Result r = Result::from_code(::sinew_world_nearest_particle_d(world_, point, max_distance, mask, &hit));
        if (!r) return r;
        return hit;
    }
    /// apply_hit_impulse for a raycast_d() hit.
    Result apply_hit_impulse_d(const RayHitd& hit, Vec3 impulse) {
        return Result::from_code(::sinew_body_apply_hit_impulse_d(world_, &hit, impulse));
    }

    /// Wraps an id of this world (e.g. one kept in a save file).
    Body body(BodyId id) const noexcept { return Body(world_, id); }
    Cloth cloth(BodyId id) const noexcept { return Cloth(world_, id); }
    Collider collider(ColliderId id) const noexcept { return Collider(world_, id); }
    Joint joint(JointId id) const noexcept { return Joint(world_, id); }

#if SINEW_CPP_HAS_SPAN
    Expected<Body> create_particles(std::span<const Vec3> positions, std::span<const float> inv_masses = {}) {
        if (!detail::fits_u32(positions.size())) return detail::too_long("positions");
        if (!inv_masses.empty() && inv_masses.size() != positions.size()) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT,
                                   "inv_masses: must be empty or as long as positions");
        }
        return create_particles(positions.data(), inv_masses.empty() ? nullptr : inv_masses.data(),
                                static_cast<std::uint32_t>(positions.size()));
    }
    /// A cloth from a mesh: def's vertices, indices (3 per triangle) and, when
    /// not empty, pin mask (one byte per vertex) come from the spans.
    Expected<Cloth> create_cloth(ClothMeshDef def, std::span<const Vec3> vertices,
                                 std::span<const std::uint32_t> indices, std::span<const std::uint8_t> pin_mask = {}) {
        if (!detail::fits_u32(vertices.size()) || !detail::fits_u32(indices.size() / 3)) {
            return detail::too_long("mesh");
        }
        if (indices.size() % 3 != 0) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT, "indices: not a multiple of 3");
        }
        if (!pin_mask.empty() && pin_mask.size() != vertices.size()) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT, "pin_mask: must be empty or one byte per vertex");
        }
        def.vertices = vertices.data();
        def.vertex_count = static_cast<std::uint32_t>(vertices.size());
        def.indices = indices.data();
        def.triangle_count = static_cast<std::uint32_t>(indices.size() / 3);
        if (!pin_mask.empty()) def.pin_mask = pin_mask.data();
        return create_cloth(def);
    }
    Expected<std::size_t> snapshot(std::span<std::uint8_t> buffer) const {
        return snapshot(buffer.data(), buffer.size());
    }
    Expected<Collider> create_mesh(const ColliderDef& def, std::span<const Vec3> points,
                                   std::span<const std::uint32_t> indices) {
        if (!detail::fits_u32(points.size()) || !detail::fits_u32(indices.size())) return detail::too_long("mesh");
        return create_mesh(def, points.data(), static_cast<std::uint32_t>(points.size()), indices.data(),
                           static_cast<std::uint32_t>(indices.size()));
    }
    /// `heights` must hold columns * rows values.
    Expected<Collider> create_heightfield(const ColliderDef& def, std::span<const float> heights,
                                          std::uint32_t columns, std::uint32_t rows) {
        if (heights.size() != static_cast<std::size_t>(columns) * rows) {
            return Result::failure(SINEW_RESULT_INVALID_ARGUMENT, "heights: must hold columns * rows values");
        }
        return create_heightfield(def, heights.data(), columns, rows);
    }
    Expected<Collider> create_convex(const ColliderDef& def, std::span<const Vec3> points) {
        if (!detail::fits_u32(points.size())) return detail::too_long("points");
        return create_convex(def, points.data(), static_cast<std::uint32_t>(points.size()));
    }
    Expected<Collider> create_compound(const ColliderDef& def, std::span<const ColliderDef> children) {
        if (!detail::fits_u32(children.size())) return detail::too_long("children");
        return create_compound(def, children.data(), static_cast<std::uint32_t>(children.size()));
    }
    Expected<std::uint32_t> read_contacts(std::span<Contact> out) const {
        const std::uint32_t capacity =
            detail::fits_u32(out.size()) ? static_cast<std::uint32_t>(out.size()) : 0xFFFFFFFFu;
        return read_contacts(out.data(), capacity);
    }
    Expected<std::uint32_t> read_contacts_d(std::span<Contactd> out) const {
        const std::uint32_t capacity =
            detail::fits_u32(out.size()) ? static_cast<std::uint32_t>(out.size()) : 0xFFFFFFFFu;
        return read_contacts_d(out.data(), capacity);
    }
    Result restore(std::span<const std::uint8_t> bytes) { return restore(bytes.data(), bytes.size()); }
#endif

private:
    Expected<Collider> make_collider(SinewResult code, ColliderId id) {
        Result r = Result::from_code(code);
        if (!r) return r;
        return Collider(world_, id);
    }

    SinewWorld* world_ = nullptr;
};

}  // namespace sinew

#endif  // SINEW_HPP
