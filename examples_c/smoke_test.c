/* smoke_test.c: calls every function of sinew.h, with good and bad input,
 * and checks each result code. Run by `cargo test` (tests/c_examples.rs). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sinew.h"

static int failures = 0;

#define EXPECT(call, expected)                                                          \
    do {                                                                                \
        SinewResult r_ = (call);                                                        \
        if (r_ != (expected)) {                                                         \
            char m_[256];                                                               \
            sinew_last_error_message(m_, sizeof m_);                                    \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", __FILE__,       \
                    __LINE__, #call, sinew_result_name(r_), sinew_result_name(expected), \
                    m_);                                                                \
            ++failures;                                                                 \
        }                                                                               \
    } while (0)

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            ++failures;                                                            \
        }                                                                          \
    } while (0)

static uint64_t hash_of(const SinewWorld* w) {
    uint64_t h = 0;
    EXPECT(sinew_world_state_hash(w, &h), SINEW_RESULT_OK);
    return h;
}

static int near(float a, float b, float tolerance) { return fabsf(a - b) <= tolerance; }

static int same_body(SinewBodyId a, SinewBodyId b) { return a.index1 == b.index1 && a.generation == b.generation; }

static int same_collider(SinewColliderId a, SinewColliderId b) {
    return a.index1 == b.index1 && a.generation == b.generation;
}

static float y_of(const SinewWorld* w, SinewBodyId body, uint32_t particle) {
    SinewVec3 p[4];
    uint32_t n = 0;
    EXPECT(sinew_body_read_positions(w, body, p, 4, &n), SINEW_RESULT_OK);
    return particle < n ? p[particle].y : NAN;
}

/* Colliders of every shape from a def (a 2-triangle mesh floor, a
 * heightfield, a hull, a compound, a capsule bar, a plane), materials and
 * collision filters, collision sticks, the contact readback, ray casts
 * against bodies and colliders, the nearest particle and an impulse at a
 * ray's hit. */
/* ---- the engine's job system, played by this file ---- */

typedef struct Jobs {
    SinewWorld* world;         /* to call back into during a step */
    uint32_t enqueued, finished, locked_calls;
    int return_handle;         /* 1: return a handle and wait in finish */
} Jobs;

/* Runs every range at once (a real engine hands them to its threads). */
static void* enqueue(void (*task)(uint32_t, uint32_t, uint32_t, void*), uint32_t items, uint32_t min_range,
                     void* task_context, void* user_context) {
    Jobs* jobs = (Jobs*)user_context;
    jobs->enqueued++;
    if (jobs->world) {
        uint32_t level = 0;
        if (sinew_world_get_simd_level(jobs->world, &level) == SINEW_RESULT_WORLD_LOCKED) jobs->locked_calls++;
    }
    uint32_t worker = 0;
    for (uint32_t start = 0; start < items; start += min_range) {
        uint32_t end = start + min_range < items ? start + min_range : items;
        task(start, end, worker, task_context);
        worker = (worker + 1) % 3;
    }
    return jobs->return_handle ? (void*)jobs : NULL;
}

static void finish(void* user_task, void* user_context) {
    Jobs* jobs = (Jobs*)user_context;
    if (user_task == (void*)jobs) jobs->finished++;
}

/* A 32x32 cloth stepped 10 times; its state hash. */
static uint64_t cloth_hash(const SinewWorldDef* def) {
    SinewWorld* w = NULL;
    EXPECT(sinew_world_create(def, &w), SINEW_RESULT_OK);
    if (!w) return 0;
    SinewClothGridDef gd = sinew_default_cloth_grid_def();
    gd.columns = 32;
    gd.rows = 32;
    SinewBodyId cloth;
    EXPECT(sinew_cloth_create_grid(w, &gd, &cloth), SINEW_RESULT_OK);
    Jobs* jobs = (Jobs*)def->user_task_context;
    if (jobs) jobs->world = w;
    for (int i = 0; i < 10; ++i) EXPECT(sinew_world_step(w, 1.0f / 60.0f), SINEW_RESULT_OK);
    if (jobs) jobs->world = NULL;
    uint64_t h = hash_of(w);
    sinew_world_destroy(w);
    return h;
}

/* Worker counts, task callbacks and SIMD levels: all give the same bits. */
/* Live world settings and the constraint counts. */
static void check_live_settings(const SinewWorldDef* base) {
    SinewWorld* w = NULL;
    EXPECT(sinew_world_create(base, &w), SINEW_RESULT_OK);
    SinewBodyId doll;
    SinewTransform at = {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    EXPECT(sinew_ragdoll_create_humanoid(w, at, 1.8f, &doll), SINEW_RESULT_OK);
    uint32_t body_count = 0, world_count = 0;
    EXPECT(sinew_body_constraint_count(w, doll, &body_count), SINEW_RESULT_OK);
    EXPECT(sinew_world_constraint_count(w, &world_count), SINEW_RESULT_OK);
    CHECK(body_count > 0 && world_count == body_count);
    EXPECT(sinew_body_constraint_count(w, doll, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_constraint_count(NULL, &world_count), SINEW_RESULT_NULL_ARGUMENT);

    EXPECT(sinew_world_set_substeps(w, 0), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_substeps(w, 4), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_iterations(w, 0), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_iterations(w, 2), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_sleep(w, NAN, 1.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_sleep(w, 0.0f, 1.0f), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_simd_level(w, 5), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_simd_level(w, SINEW_SIMD_SCALAR), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_worker_count(w, 0), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_worker_count(w, 2), SINEW_RESULT_OK);
    SinewWorldDef got;
    EXPECT(sinew_world_get_def(w, &got), SINEW_RESULT_OK);
    CHECK(got.substeps == 4 && got.iterations == 2 && got.simd_level == SINEW_SIMD_SCALAR && got.worker_count == 2);
    for (int i = 0; i < 10; ++i) EXPECT(sinew_world_step(w, 1.0f / 60.0f), SINEW_RESULT_OK);
    uint64_t recoveries = 1;
    EXPECT(sinew_world_recovery_count(w, &recoveries), SINEW_RESULT_OK);
    CHECK(recoveries == 0);
    sinew_world_destroy(w);
}

static void check_workers(const SinewWorldDef* base) {
    SinewWorldDef d = *base;
    SinewWorld* w = NULL;
    d.simd_level = 5;
    EXPECT(sinew_world_create(&d, &w), SINEW_RESULT_INVALID_ARGUMENT);
    d = *base;
    d.worker_count = 0;
    EXPECT(sinew_world_create(&d, &w), SINEW_RESULT_INVALID_ARGUMENT);
    d.worker_count = 65;
    EXPECT(sinew_world_create(&d, &w), SINEW_RESULT_INVALID_ARGUMENT);
    d = *base;
    d.enqueue_task = enqueue; /* without finish_task */
    EXPECT(sinew_world_create(&d, &w), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(w == NULL);

    d = *base;
    d.simd_level = SINEW_SIMD_SCALAR;
    uint64_t reference = cloth_hash(&d);
    d.simd_level = SINEW_SIMD_AUTO;
    CHECK(cloth_hash(&d) == reference);
    d.worker_count = 2; /* the built-in pool */
    CHECK(cloth_hash(&d) == reference);

    Jobs jobs = {NULL, 0, 0, 0, 0};
    d.simd_level = SINEW_SIMD_SCALAR; /* one stick per chunk: every batch is large enough to split */
    d.worker_count = 3;
    d.enqueue_task = enqueue;
    d.finish_task = finish;
    d.user_task_context = &jobs;
    CHECK(cloth_hash(&d) == reference);
    CHECK(jobs.enqueued > 0 && jobs.finished == 0);
    CHECK(jobs.locked_calls == jobs.enqueued); /* a call into the stepping world is refused, not deadlocked */
    jobs.return_handle = 1;
    jobs.enqueued = 0;
    jobs.locked_calls = 0;
    CHECK(cloth_hash(&d) == reference);
    CHECK(jobs.enqueued > 0 && jobs.finished == jobs.enqueued);
}

/* The _d calls (double-precision world positions, for large worlds): a
 * scene 10 km out, built, moved and read through them, rests where the same
 * scene rests at the origin; bad input is refused as by the f32 calls. */
static double far_scene(const SinewWorldDef* def, double at) {
    SinewWorld* w = NULL;
    EXPECT(sinew_world_create(def, &w), SINEW_RESULT_OK);
    const SinewQuat id = {0, 0, 0, 1};
    SinewColliderId c;
    SinewTransformd floor = {{at, -0.5, -at}, id};
    SinewVec3 half = {4.0f, 0.5f, 4.0f};
    EXPECT(sinew_collider_create_box_d(w, floor, half, 0.5f, &c), SINEW_RESULT_OK);
    SinewColliderId other;
    SinewVec3d ball = {at + 3.0, 0.0, -at};
    EXPECT(sinew_collider_create_sphere_d(w, ball, 0.5f, 0.5f, &other), SINEW_RESULT_OK);
    SinewVec3d a = {at - 3.0, 0.0, -at}, b = {at - 3.0, 0.0, -at + 1.0};
    EXPECT(sinew_collider_create_capsule_d(w, a, b, 0.2f, 0.5f, &other), SINEW_RESULT_OK);
    SinewVec3 up = {0.0f, 1.0f, 0.0f};
    EXPECT(sinew_collider_create_plane_d(w, up, -10.0, 0.5f, &other), SINEW_RESULT_OK);
    SinewColliderDef cd = sinew_default_collider_def();
    SinewVec3d deep = {at, -20.0, -at};
    EXPECT(sinew_collider_create_d(w, &cd, deep, &other), SINEW_RESULT_OK);
    EXPECT(sinew_collider_set_transform_d(w, c, floor), SINEW_RESULT_OK);
    SinewTransformd got;
    EXPECT(sinew_collider_get_transform_d(w, c, &got), SINEW_RESULT_OK);
    CHECK(got.position.x == at && got.position.z == -at);

    SinewVec3d p[2] = {{at, 1.0, -at}, {at + 0.5, 1.0, -at}};
    SinewBodyId body;
    EXPECT(sinew_body_create_particles_d(w, p, NULL, 2, &body), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(w, body, 0.05f), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_positions_d(w, body, 1, &p[1], 1), SINEW_RESULT_OK);
    SinewTargetd t = {0, 1e-3f, 0.0f, {at, 1.0, -at}};
    EXPECT(sinew_body_set_targets_d(w, body, &t, 1), SINEW_RESULT_OK);
    EXPECT(sinew_body_clear_targets(w, body), SINEW_RESULT_OK);
    SinewTransformd here = {{at, 0.0, -at}, id};
    EXPECT(sinew_body_teleport_d(w, body, here, here, SINEW_TELEPORT_KEEP_VELOCITY), SINEW_RESULT_OK);

    SinewBodyId doll, copy, limb, crate, sheet, mesh;
    SinewTransformd feet = {{at + 1.0, 0.0, -at}, id};
    EXPECT(sinew_ragdoll_create_humanoid_d(w, feet, 1.8f, &doll), SINEW_RESULT_OK);
    SinewSkeleton* skeleton = NULL;
    EXPECT(sinew_ragdoll_get_skeleton(w, doll, &skeleton), SINEW_RESULT_OK);
    SinewTransformd beside = {{at - 1.5, 0.0, -at + 1.0}, id};
    EXPECT(sinew_ragdoll_create_from_skeleton_d(w, skeleton, beside, &copy), SINEW_RESULT_OK);
    sinew_skeleton_destroy(skeleton);
    SinewBoneDef bones[2];
    bones[0] = sinew_default_bone_def();
    bones[0].length = 0.3f;
    bones[1] = sinew_default_bone_def();
    bones[1].parent = 0;
    bones[1].rest.position.y = 0.3f;
    bones[1].length = 0.3f;
    SinewRagdollDef rd = sinew_default_ragdoll_def();
    rd.bones = bones;
    rd.bone_count = 2;
    SinewVec3d limb_at = {at - 5.0, 1.0, -at};
    EXPECT(sinew_ragdoll_create_d(w, &rd, limb_at, &limb), SINEW_RESULT_OK);
    SinewRigidDef rdef = sinew_default_rigid_def();
    SinewVec3d crate_at = {at + 2.0, 1.0, -at + 2.0};
    EXPECT(sinew_rigid_create_d(w, &rdef, crate_at, &crate), SINEW_RESULT_OK);
    SinewClothGridDef grid = sinew_default_cloth_grid_def();
    grid.columns = 3;
    grid.rows = 3;
    SinewVec3d grid_at = {at - 2.0, 2.0, -at - 2.0};
    EXPECT(sinew_cloth_create_grid_d(w, &grid, grid_at, &sheet), SINEW_RESULT_OK);
    uint32_t corner = 0, frame = 99;
    SinewTransformd pole = {grid_at, id};
    EXPECT(sinew_body_attach_to_frame_d(w, sheet, &corner, 1, pole, &frame), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_frame_d(w, sheet, frame, pole), SINEW_RESULT_OK);
    SinewVec3 tri_v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
    uint32_t tri[3] = {0, 1, 2};
    SinewClothMeshDef md = sinew_default_cloth_mesh_def();
    md.vertices = tri_v;
    md.vertex_count = 3;
    md.indices = tri;
    md.triangle_count = 1;
    SinewVec3d mesh_at = {at + 5.0, 1.0, -at};
    EXPECT(sinew_cloth_create_d(w, &md, mesh_at, &mesh), SINEW_RESULT_OK);
    SinewVec3d skin[3] = {{at + 5.0, 1.0, -at}, {at + 6.0, 1.0, -at}, {at + 5.0, 1.0, -at + 1.0}};
    SinewVec3 ups[3] = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
    EXPECT(sinew_cloth_set_skin_d(w, mesh, skin, ups, 3), SINEW_RESULT_OK);

    for (int i = 0; i < 60; ++i) EXPECT(sinew_world_step(w, 1.0f / 60.0f), SINEW_RESULT_OK);

    uint32_t n = 0;
    EXPECT(sinew_ragdoll_read_bones_d(w, doll, NULL, 0, &n), SINEW_RESULT_OK);
    SinewTransformd pose[32];
    CHECK(n > 0 && n <= 32);
    EXPECT(sinew_ragdoll_read_bones_d(w, doll, pose, 32, &n), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_targets_d(w, doll, pose, n), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_targets_local_d(w, doll, pose, n - 1), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_targets_local_d(w, body, pose, n), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_set_pose_d(w, doll, pose, NULL, n, 0.0f), SINEW_RESULT_OK);
    SinewTransformd crate_now;
    EXPECT(sinew_rigid_read_transform_d(w, crate, &crate_now), SINEW_RESULT_OK);
    CHECK(fabs(crate_now.position.x - (at + 2.0)) < 2e-4); /* measured 4.8e-5 m (the bound was 1 m) */
    SinewVec3d lo, hi, x[2];
    EXPECT(sinew_body_get_bounds_d(w, body, &lo, &hi), SINEW_RESULT_OK);
    CHECK(lo.x <= at + 0.1 && hi.x >= at + 0.4);
    EXPECT(sinew_body_read_positions_d(w, body, x, 1, &n), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(n == 2);
    EXPECT(sinew_body_read_positions_d(w, body, x, 2, &n), SINEW_RESULT_OK);

    /* The _d queries and pushes: contacts, rays, the nearest particle,
     * impulses, an explosion, the cloth's vertices (3 doubles + 3 floats). */
    uint32_t contacts = 0;
    EXPECT(sinew_world_read_contacts_d(w, NULL, 0, &contacts), SINEW_RESULT_OK);
    CHECK(contacts > 1);
    SinewContactd one_contact;
    EXPECT(sinew_world_read_contacts_d(w, &one_contact, 1, &n), SINEW_RESULT_BUFFER_TOO_SMALL);
    SinewVec3 down = {0.0f, -1.0f, 0.0f}, push = {0.0f, 0.5f, 0.0f};
    SinewVec3d above = {at, 3.0, -at};
    SinewRayHitd hit;
    EXPECT(sinew_world_raycast_d(w, above, down, INFINITY, SINEW_LAYER_ALL, &hit), SINEW_RESULT_OK);
    CHECK(hit.hit == 1 && hit.point.x == at && hit.point.y < 3.0);
    EXPECT(sinew_body_apply_hit_impulse_d(w, &hit, push), SINEW_RESULT_OK);
    SinewColliderHitd ground;
    SinewVec3d over_floor = {at + 0.25, 3.0, -at + 3.5};
    EXPECT(sinew_world_raycast_colliders_d(w, over_floor, down, 10.0f, SINEW_LAYER_ALL, &ground), SINEW_RESULT_OK);
    CHECK(ground.hit == 1 && ground.collider.index1 == c.index1 && fabs(ground.point.y) < 1e-6);
    SinewParticleHitd picked;
    EXPECT(sinew_world_nearest_particle_d(w, p[1], 2.0f, SINEW_LAYER_ALL, &picked), SINEW_RESULT_OK);
    CHECK(picked.hit == 1);
    EXPECT(sinew_ragdoll_apply_impulse_d(w, doll, 0, pose[0].position, push), SINEW_RESULT_OK);
    EXPECT(sinew_rigid_apply_impulse_d(w, crate, crate_now.position, push), SINEW_RESULT_OK);
    uint32_t pushed = 0;
    EXPECT(sinew_world_explode_d(w, above, 1.0f, 4.0f, &pushed), SINEW_RESULT_OK);
    CHECK(pushed > 0);
    unsigned char vertices[9 * 36];
    EXPECT(sinew_cloth_write_vertices_d(w, sheet, vertices, 36, vertices + 24, 36, 9, &n), SINEW_RESULT_OK);
    CHECK(n == 9);
    EXPECT(sinew_cloth_write_vertices_d(w, sheet, vertices, 12, NULL, 0, 9, &n), SINEW_RESULT_INVALID_ARGUMENT);

    /* Bad input: NaN, beyond 1e15 m, NULL. */
    SinewVec3d nan_at = {NAN, 0.0, 0.0}, huge = {1e16, 0.0, 0.0};
    EXPECT(sinew_body_create_particles_d(w, &nan_at, NULL, 1, &body), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_create_sphere_d(w, huge, 0.5f, 0.5f, &other), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_positions_d(w, body, 0, NULL, 1), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_shift_origin_d(w, nan_at), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast_d(w, huge, down, 1.0f, SINEW_LAYER_ALL, &hit), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_explode_d(w, nan_at, 1.0f, 1.0f, NULL), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_nearest_particle_d(w, above, 1.0f, SINEW_LAYER_ALL, NULL), SINEW_RESULT_NULL_ARGUMENT);
    uint64_t recoveries = 1;
    EXPECT(sinew_world_recovery_count(w, &recoveries), SINEW_RESULT_OK);
    CHECK(recoveries == 0);
    SinewVec3d shift = {at, 0.0, -at};
    EXPECT(sinew_world_shift_origin_d(w, shift), SINEW_RESULT_OK);
    sinew_world_destroy(w);
    return x[0].y;
}

static void check_far(const SinewWorldDef* def) {
    double home = far_scene(def, 0.0), far = far_scene(def, 10000.0);
    CHECK(home == far);
    CHECK(home > -0.1 && home < 0.2);
}

static void check_shapes_and_queries(const SinewWorldDef* base) {
    SinewWorldDef wd = *base;
    wd.sleep_speed = 0.0f; /* nothing sleeps, so resting contacts stay reported */
    SinewWorld* w = NULL;
    EXPECT(sinew_world_create(&wd, &w), SINEW_RESULT_OK);
    const SinewBodyId null_body = {0, 0};
    const SinewColliderId null_collider = {0, 0};
    const SinewVec3 down = {0, -1, 0}, up = {0, 1, 0};

    /* ---- the default def ---- */
    SinewColliderDef cd = sinew_default_collider_def();
    CHECK(cd.shape == SINEW_SHAPE_BOX && cd.half_extents.x == 0.5f && cd.half_extents.z == 0.5f);
    CHECK(cd.radius == 0.5f && cd.half_height == 0.5f && cd.normal.y == 1.0f && cd.offset == 0.0f);
    CHECK(cd.transform.rotation.w == 1.0f && cd.transform.position.x == 0.0f);
    CHECK(cd.points == NULL && cd.point_count == 0 && cd.indices == NULL && cd.index_count == 0);
    CHECK(cd.heights == NULL && cd.columns == 0 && cd.rows == 0 && cd.cell_size_x == 1.0f && cd.cell_size_z == 1.0f);
    CHECK(cd.children == NULL && cd.child_count == 0);
    CHECK(cd.material.friction == 0.5f && cd.material.dynamic_friction == 0.5f);
    CHECK(cd.material.restitution == 0.0f && cd.material.combine == SINEW_COMBINE_AVERAGE);
    CHECK(cd.layer == SINEW_LAYER_DEFAULT && cd.mask == SINEW_LAYER_ALL && cd.internal_cookie != 0);

    /* ---- bad defs: refused, nothing created ---- */
    SinewColliderId cid = {0, 0};
    SinewColliderDef zero_cd;
    memset(&zero_cd, 0, sizeof zero_cd);
    EXPECT(sinew_collider_create(w, &zero_cd, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* no cookie */
    EXPECT(sinew_collider_create(w, NULL, &cid), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_create(w, &cd, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_create(NULL, &cd, &cid), SINEW_RESULT_NULL_ARGUMENT);
    SinewColliderDef bad = cd;
    bad.shape = 99;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.material.combine = 9;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.material.restitution = 1.5f;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.material.friction = -0.1f;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.material.dynamic_friction = NAN;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.transform.position.x = NAN;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.transform.rotation.w = 0.0f; /* a zero quaternion */
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.half_extents.y = 0.0f;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.shape = SINEW_SHAPE_SPHERE;
    bad.radius = 0.0f;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad.shape = SINEW_SHAPE_CAPSULE;
    bad.radius = 0.1f;
    bad.half_height = -1.0f;
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    bad = cd;
    bad.shape = SINEW_SHAPE_PLANE;
    bad.normal = (SinewVec3){0, 0, 0};
    EXPECT(sinew_collider_create(w, &bad, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(cid.index1 == 0); /* untouched on failure */

    /* ---- a box, a sphere and a capsule from defs, far from the rest ---- */
    SinewColliderDef box_def = cd;
    box_def.transform.position = (SinewVec3){30, 0, 0};
    SinewColliderId box_c = {0, 0}, ball_c, pill_c;
    EXPECT(sinew_collider_create(w, &box_def, &box_c), SINEW_RESULT_OK);
    CHECK(sinew_collider_is_valid(w, box_c) == 1);
    box_def.shape = SINEW_SHAPE_SPHERE;
    box_def.transform.position.z = 5.0f;
    EXPECT(sinew_collider_create(w, &box_def, &ball_c), SINEW_RESULT_OK);
    box_def.shape = SINEW_SHAPE_CAPSULE;
    box_def.transform.position.z = 10.0f;
    box_def.half_height = 0.0f; /* a capsule of no length is a ball */
    EXPECT(sinew_collider_create(w, &box_def, &pill_c), SINEW_RESULT_OK);

    /* A plane from a def: solid below y = -100 (its normal is normalised). */
    SinewColliderDef plane_def = cd;
    plane_def.shape = SINEW_SHAPE_PLANE;
    plane_def.normal = (SinewVec3){0, 2, 0};
    plane_def.offset = -100.0f;
    SinewColliderId abyss;
    EXPECT(sinew_collider_create(w, &plane_def, &abyss), SINEW_RESULT_OK);

    /* ---- a mesh floor: two triangles, 4 m square, at y = 0 ---- */
    SinewVec3 quad[4] = {{-2, 0, -2}, {2, 0, -2}, {2, 0, 2}, {-2, 0, 2}};
    uint32_t tris[6] = {0, 2, 1, 0, 3, 2};
    SinewColliderDef mesh_def = cd;
    mesh_def.shape = SINEW_SHAPE_MESH;
    mesh_def.point_count = 4;
    mesh_def.index_count = 6;
    mesh_def.indices = tris;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_NULL_ARGUMENT); /* points NULL */
    mesh_def.points = quad;
    mesh_def.indices = NULL;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_NULL_ARGUMENT); /* indices NULL */
    mesh_def.indices = tris;
    mesh_def.index_count = 5;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* not a multiple of 3 */
    mesh_def.index_count = 0;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* empty */
    mesh_def.index_count = 6;
    tris[5] = 4;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* index out of range */
    tris[5] = 2;
    uint32_t sliver[3] = {0, 0, 1};
    mesh_def.indices = sliver;
    mesh_def.index_count = 3;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* only degenerate */
    quad[1].x = NAN;
    mesh_def.indices = tris;
    mesh_def.index_count = 6;
    EXPECT(sinew_collider_create(w, &mesh_def, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    quad[1].x = 2.0f;
    mesh_def.material = (SinewMaterial){0.8f, 0.6f, 0.0f, SINEW_COMBINE_MAX};
    SinewColliderId floor = {0, 0};
    CHECK(cid.index1 == 0);
    EXPECT(sinew_collider_create(w, &mesh_def, &floor), SINEW_RESULT_OK);
    quad[0].y = 5.0f; /* the def's arrays are read during the call only */

    /* materials: back as given, changed, bad ones refused */
    SinewMaterial m = {0, 0, 0, 0};
    EXPECT(sinew_collider_get_material(w, floor, &m), SINEW_RESULT_OK);
    CHECK(m.friction == 0.8f && m.dynamic_friction == 0.6f && m.restitution == 0.0f && m.combine == SINEW_COMBINE_MAX);
    SinewMaterial changed = {0.3f, 0.2f, 0.5f, SINEW_COMBINE_MIN};
    EXPECT(sinew_collider_set_material(w, floor, changed), SINEW_RESULT_OK);
    EXPECT(sinew_collider_get_material(w, floor, &m), SINEW_RESULT_OK);
    CHECK(m.friction == 0.3f && m.dynamic_friction == 0.2f && m.restitution == 0.5f && m.combine == SINEW_COMBINE_MIN);
    SinewMaterial bad_m = changed;
    bad_m.combine = 9;
    EXPECT(sinew_collider_set_material(w, floor, bad_m), SINEW_RESULT_INVALID_ARGUMENT);
    bad_m = changed;
    bad_m.restitution = -0.1f;
    EXPECT(sinew_collider_set_material(w, floor, bad_m), SINEW_RESULT_INVALID_ARGUMENT);
    bad_m = changed;
    bad_m.friction = INFINITY;
    EXPECT(sinew_collider_set_material(w, floor, bad_m), SINEW_RESULT_INVALID_ARGUMENT);
    bad_m = changed;
    bad_m.dynamic_friction = -1.0f;
    EXPECT(sinew_collider_set_material(w, floor, bad_m), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_set_material(w, null_collider, changed), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_set_material(NULL, floor, changed), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_get_material(w, floor, &m), SINEW_RESULT_OK);
    CHECK(m.friction == 0.3f && m.combine == SINEW_COMBINE_MIN); /* refusals changed nothing */
    EXPECT(sinew_collider_get_material(w, floor, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_get_material(w, null_collider, &m), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_get_material(NULL, floor, &m), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_set_material(w, floor, (SinewMaterial){0.8f, 0.6f, 0.0f, SINEW_COMBINE_AVERAGE}),
           SINEW_RESULT_OK);
    /* the older create calls give one Coulomb coefficient, no bounce */
    SinewColliderId old_ball;
    EXPECT(sinew_collider_create_sphere(w, (SinewVec3){30, 0, 15}, 0.5f, 0.3f, &old_ball), SINEW_RESULT_OK);
    EXPECT(sinew_collider_get_material(w, old_ball, &m), SINEW_RESULT_OK);
    CHECK(m.friction == 0.3f && m.dynamic_friction == 0.3f && m.restitution == 0.0f &&
          m.combine == SINEW_COMBINE_AVERAGE);

    /* ---- a heightfield: 3 x 3 heights of 0.5 m, its frame 0.5 m down at x = 10,
     * so its surface is at y = 0 ---- */
    float heights[9] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    SinewColliderDef hf_def = cd;
    hf_def.shape = SINEW_SHAPE_HEIGHTFIELD;
    hf_def.transform.position = (SinewVec3){10, -0.5f, 0};
    EXPECT(sinew_collider_create(w, &hf_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* 0 x 0 */
    hf_def.columns = 3;
    hf_def.rows = 3;
    EXPECT(sinew_collider_create(w, &hf_def, &cid), SINEW_RESULT_NULL_ARGUMENT); /* heights NULL */
    hf_def.heights = heights;
    hf_def.columns = 1;
    EXPECT(sinew_collider_create(w, &hf_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* under 2 x 2 */
    hf_def.columns = 3;
    hf_def.cell_size_x = 0.0f;
    EXPECT(sinew_collider_create(w, &hf_def, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    hf_def.cell_size_x = 1.0f;
    heights[4] = NAN;
    EXPECT(sinew_collider_create(w, &hf_def, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    heights[4] = 0.5f;
    SinewColliderId field = {0, 0};
    EXPECT(sinew_collider_create(w, &hf_def, &field), SINEW_RESULT_OK);

    /* ---- a hull: a 1 m cube at x = -10 ---- */
    SinewVec3 cube[8] = {{-0.5f, -0.5f, -0.5f}, {0.5f, -0.5f, -0.5f}, {-0.5f, 0.5f, -0.5f}, {0.5f, 0.5f, -0.5f},
                         {-0.5f, -0.5f, 0.5f},  {0.5f, -0.5f, 0.5f},  {-0.5f, 0.5f, 0.5f},  {0.5f, 0.5f, 0.5f}};
    SinewColliderDef hull_def = cd;
    hull_def.shape = SINEW_SHAPE_CONVEX;
    hull_def.transform.position = (SinewVec3){-10, 0, 0};
    hull_def.point_count = 8;
    EXPECT(sinew_collider_create(w, &hull_def, &cid), SINEW_RESULT_NULL_ARGUMENT);
    hull_def.points = cube;
    hull_def.point_count = 3;
    EXPECT(sinew_collider_create(w, &hull_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* fewer than 4 */
    hull_def.point_count = 4;                                                         /* a flat face */
    EXPECT(sinew_collider_create(w, &hull_def, &cid), SINEW_RESULT_INVALID_ARGUMENT);
    {
        SinewVec3 many[257];
        memset(many, 0, sizeof many);
        hull_def.points = many;
        hull_def.point_count = 257;
        EXPECT(sinew_collider_create(w, &hull_def, &cid), SINEW_RESULT_LIMIT_EXCEEDED);
    }
    hull_def.points = cube;
    hull_def.point_count = 8;
    SinewColliderId hull = {0, 0};
    EXPECT(sinew_collider_create(w, &hull_def, &hull), SINEW_RESULT_OK);

    /* ---- a compound at z = 10: a thin box at local x = -1, a ball at x = +1 ---- */
    SinewColliderDef parts[2];
    parts[0] = cd;
    parts[0].transform.position = (SinewVec3){-1, 0, 0};
    parts[0].half_extents = (SinewVec3){0.5f, 0.1f, 0.5f};
    parts[1] = cd;
    parts[1].shape = SINEW_SHAPE_SPHERE;
    parts[1].transform.position = (SinewVec3){1, 0, 0};
    parts[1].radius = 0.3f;
    parts[1].material.combine = 9; /* a part's material is ignored */
    SinewColliderDef comp_def = cd;
    comp_def.shape = SINEW_SHAPE_COMPOUND;
    comp_def.transform.position = (SinewVec3){0, 0, 10};
    EXPECT(sinew_collider_create(w, &comp_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* empty */
    comp_def.child_count = 2;
    EXPECT(sinew_collider_create(w, &comp_def, &cid), SINEW_RESULT_NULL_ARGUMENT); /* children NULL */
    comp_def.children = parts;
    SinewColliderDef part0 = parts[0];
    memset(&parts[0], 0, sizeof parts[0]);
    EXPECT(sinew_collider_create(w, &comp_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* a part without cookie */
    parts[0] = comp_def;
    EXPECT(sinew_collider_create(w, &comp_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* a nested compound */
    parts[0] = part0;
    parts[0].half_extents.x = -1.0f;
    EXPECT(sinew_collider_create(w, &comp_def, &cid), SINEW_RESULT_INVALID_ARGUMENT); /* a bad part */
    parts[0].half_extents.x = 0.5f;
    SinewColliderId compound = {0, 0};
    CHECK(cid.index1 == 0);
    EXPECT(sinew_collider_create(w, &comp_def, &compound), SINEW_RESULT_OK);

    /* ---- two thin bars along z (capsules turned a quarter about x) at x = 19.6 and 20.4 ---- */
    const float h = 0.70710678f;
    SinewColliderDef bar_def = cd;
    bar_def.shape = SINEW_SHAPE_CAPSULE;
    bar_def.radius = 0.05f;
    bar_def.half_height = 1.0f;
    bar_def.transform = (SinewTransform){{19.6f, 1.0f, 0.0f}, {h, 0.0f, 0.0f, h}};
    SinewColliderId bar_a, bar_b;
    EXPECT(sinew_collider_create(w, &bar_def, &bar_a), SINEW_RESULT_OK);
    bar_def.transform.position.x = 20.4f;
    EXPECT(sinew_collider_create(w, &bar_def, &bar_b), SINEW_RESULT_OK);

    /* ---- bodies ---- */
    SinewBodyId ball = {0, 0}, hill, perch, ghost, faller, rope;
    SinewVec3 ball_at = {0.3f, 0.5f, 0.2f}, hill_at = {11.2f, 1.0f, 0.7f};
    SinewVec3 perch_at[2] = {{-1.0f, 1.0f, 10.0f}, {1.0f, 1.0f, 10.0f}};
    SinewVec3 ghost_at = {0.5f, 0.5f, -0.5f}, faller_at = {-10.0f, 1.5f, 0.0f};
    SinewVec3 rope_at[2] = {{19.2f, 1.2f, 0.0f}, {20.8f, 1.2f, 0.0f}};
    EXPECT(sinew_body_create_particles(w, &ball_at, NULL, 1, &ball), SINEW_RESULT_OK);
    EXPECT(sinew_body_create_particles(w, &hill_at, NULL, 1, &hill), SINEW_RESULT_OK);
    EXPECT(sinew_body_create_particles(w, perch_at, NULL, 2, &perch), SINEW_RESULT_OK);
    EXPECT(sinew_body_create_particles(w, &ghost_at, NULL, 1, &ghost), SINEW_RESULT_OK);
    EXPECT(sinew_body_create_particles(w, &faller_at, NULL, 1, &faller), SINEW_RESULT_OK);
    EXPECT(sinew_body_create_particles(w, rope_at, NULL, 2, &rope), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(w, ball, 0.1f), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(w, hill, 0.1f), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(w, perch, 0.05f), SINEW_RESULT_OK);
    SinewDistanceConstraint rod = {0, 1, -1.0f, 0.0f};
    EXPECT(sinew_body_add_distance_constraints(w, rope, &rod, 1), SINEW_RESULT_OK);

    /* body materials: combine is ignored, NULL removes */
    SinewMaterial bm = {1.0f, 0.9f, 0.0f, 9};
    EXPECT(sinew_body_set_material(w, ball, &bm), SINEW_RESULT_OK);
    bm.restitution = 1.5f;
    EXPECT(sinew_body_set_material(w, ball, &bm), SINEW_RESULT_INVALID_ARGUMENT);
    bm.restitution = 0.0f;
    bm.friction = NAN;
    EXPECT(sinew_body_set_material(w, ball, &bm), SINEW_RESULT_INVALID_ARGUMENT);
    bm.friction = -1.0f;
    EXPECT(sinew_body_set_material(w, ball, &bm), SINEW_RESULT_INVALID_ARGUMENT);
    bm.friction = 1.0f;
    EXPECT(sinew_body_set_material(w, null_body, &bm), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_set_material(NULL, ball, &bm), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_set_material(w, hill, NULL), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_material(w, null_body, NULL), SINEW_RESULT_INVALID_ID);

    /* filters: the ghost's mask lacks layer 1 (the floor's), the hull's mask
     * is empty, the heightfield moves to layer 4 (which bodies' masks hold) */
    EXPECT(sinew_body_set_collision_filter(w, ghost, 2u, ~1u), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_collision_filter(w, null_body, 2u, ~1u), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_set_collision_filter(NULL, ghost, 2u, ~1u), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_collider_set_filter(w, hull, SINEW_LAYER_DEFAULT, 0u), SINEW_RESULT_OK);
    EXPECT(sinew_collider_set_filter(w, field, 4u, SINEW_LAYER_ALL), SINEW_RESULT_OK);
    EXPECT(sinew_collider_set_filter(w, null_collider, 1u, 1u), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_set_filter(NULL, hull, 1u, 1u), SINEW_RESULT_NULL_ARGUMENT);

    /* collision sticks: the rope's two ends lie 0.4 m outside the bars, so
     * only its stick can rest on them */
    uint64_t before = hash_of(w);
    SinewCollisionStick cs[2] = {{0, 1, 0.05f}, {0, 2, 0.05f}};
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 2), SINEW_RESULT_INVALID_ARGUMENT); /* index 2 of 2 */
    cs[1] = (SinewCollisionStick){1, 1, 0.05f};
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 2), SINEW_RESULT_INVALID_ARGUMENT); /* a == b */
    cs[1] = (SinewCollisionStick){1, 0, 0.0f};
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 2), SINEW_RESULT_INVALID_ARGUMENT); /* zero radius */
    cs[1].radius = NAN;
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 2), SINEW_RESULT_INVALID_ARGUMENT);
    cs[1].radius = -0.05f;
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_add_collision_sticks(w, rope, NULL, 1), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_add_collision_sticks(w, null_body, cs, 1), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_add_collision_sticks(NULL, rope, cs, 1), SINEW_RESULT_NULL_ARGUMENT);
    CHECK(hash_of(w) == before); /* nothing was added */
    EXPECT(sinew_body_add_collision_sticks(w, rope, NULL, 0), SINEW_RESULT_OK);
    EXPECT(sinew_body_add_collision_sticks(w, rope, cs, 1), SINEW_RESULT_OK);
    CHECK(hash_of(w) != before);

    /* no step yet: no contacts */
    uint32_t n_contacts = 99;
    EXPECT(sinew_world_read_contacts(w, NULL, 0, &n_contacts), SINEW_RESULT_OK);
    CHECK(n_contacts == 0);

    for (int i = 0; i < 60; ++i) EXPECT(sinew_world_step(w, 1.0f / 60.0f), SINEW_RESULT_OK);

    /* where they came to rest */
    float ball_y = y_of(w, ball, 0), hill_y = y_of(w, hill, 0);
    float perch_box_y = y_of(w, perch, 0), perch_ball_y = y_of(w, perch, 1);
    float rope_y0 = y_of(w, rope, 0), rope_y1 = y_of(w, rope, 1);
    printf("shapes: ball on the mesh floor y = %.4f (0.1), on the heightfield y = %.4f (0.1), on the compound "
           "%.4f (0.15) and %.4f (0.35), rope on the bars %.4f %.4f (1.1)\n",
           (double)ball_y, (double)hill_y, (double)perch_box_y, (double)perch_ball_y, (double)rope_y0,
           (double)rope_y1);
    /* measured 0 to 3e-8 m off, the rope 2.4e-5 (the bounds were 2e-3 and 5e-3) */
    CHECK(near(ball_y, 0.1f, 2e-7f));
    CHECK(near(hill_y, 0.1f, 2e-7f));
    CHECK(near(perch_box_y, 0.15f, 2e-7f) && near(perch_ball_y, 0.35f, 2e-7f));
    CHECK(near(rope_y0, 1.1f, 1e-4f) && near(rope_y1, 1.1f, 1e-4f));
    CHECK(y_of(w, ghost, 0) < -3.0f);  /* its mask lacks the floor's layer */
    CHECK(y_of(w, faller, 0) < -3.0f); /* the hull's mask is empty */

    /* ---- contacts ---- */
    SinewContact contacts[16];
    memset(contacts, 0, sizeof contacts);
    EXPECT(sinew_world_read_contacts(w, NULL, 0, &n_contacts), SINEW_RESULT_OK);
    CHECK(n_contacts >= 4 && n_contacts <= 16); /* ball, hill, both perch particles (+ the rope's) */
    uint32_t stored = 0;
    EXPECT(sinew_world_read_contacts(w, contacts, n_contacts - 1, &stored), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(stored == n_contacts && contacts[0].body.index1 == 0); /* the count stored, nothing written */
    EXPECT(sinew_world_read_contacts(w, NULL, 4, &stored), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_read_contacts(NULL, contacts, 16, &stored), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_read_contacts(w, contacts, 16, NULL), SINEW_RESULT_OK);
    stored = 0;
    EXPECT(sinew_world_read_contacts(w, contacts, 16, &stored), SINEW_RESULT_OK);
    CHECK(stored == n_contacts);
    int seen_ball = 0, seen_hill = 0, seen_perch = 0;
    for (uint32_t k = 0; k < stored && k < 16; ++k) {
        const SinewContact* c = &contacts[k];
        CHECK(!same_body(c->body, ghost) && !same_body(c->body, faller));
        CHECK(c->depth >= 0.0f && c->speed >= 0.0f);
        if (same_body(c->body, ball)) {
            seen_ball = 1;
            CHECK(same_collider(c->collider, floor) && c->particle == 0);
            CHECK(c->normal.y > 0.999f && near(c->point.y, 0.0f, 2e-7f) && near(c->point.x, 0.3f, 2e-7f)); /* 0 */
            CHECK(c->speed < 0.1f); /* resting: measured 0.0204 m/s, g h (the bound was 0.5) */
        } else if (same_body(c->body, hill)) {
            seen_hill = 1;
            /* measured 1.5e-8 m */
            CHECK(same_collider(c->collider, field) && near(c->point.y, 0.0f, 1e-7f) && c->normal.y > 0.999f);
        } else if (same_body(c->body, perch)) {
            seen_perch += 1;
            CHECK(same_collider(c->collider, compound));
            CHECK(near(c->point.y, c->particle == 0 ? 0.1f : 0.3f, 5e-8f)); /* measured 7.5e-9 */
        }
    }
    CHECK(seen_ball && seen_hill && seen_perch == 2);

    /* ---- ray casts against bodies ---- */
    SinewRayHit rh;
    memset(&rh, 0, sizeof rh);
    SinewVec3 above_ball = {0.3f, 5.0f, 0.2f};
    EXPECT(sinew_world_raycast(w, above_ball, (SinewVec3){0, -3, 0}, INFINITY, SINEW_LAYER_ALL, &rh),
           SINEW_RESULT_OK);
    CHECK(rh.hit == 1 && same_body(rh.body, ball) && rh.particle_count == 1 && rh.particle_a == 0);
    CHECK(rh.weight_a == 1.0f && rh.weight_b == 0.0f && rh.weight_c == 0.0f);
    CHECK(near(rh.distance, 4.8f, 5e-6f) && near(rh.point.y, 0.2f, 5e-6f) && rh.normal.y > 0.999f); /* 1.4e-6 */
    memset(&rh, 0xff, sizeof rh);
    EXPECT(sinew_world_raycast(w, above_ball, down, 4.0f, SINEW_LAYER_ALL, &rh), SINEW_RESULT_OK);
    CHECK(rh.hit == 0 && rh.body.index1 == 0 && rh.distance == 0.0f); /* a miss: zeroed */
    EXPECT(sinew_world_raycast(w, above_ball, down, INFINITY, 2u, &rh), SINEW_RESULT_OK);
    CHECK(rh.hit == 0); /* the ball is not on layer 2 */
    EXPECT(sinew_world_raycast(w, above_ball, up, INFINITY, SINEW_LAYER_ALL, &rh), SINEW_RESULT_OK);
    CHECK(rh.hit == 0);
    /* the rope's stick, in its middle: two particles, half each */
    SinewRayHit rope_hit;
    EXPECT(sinew_world_raycast(w, (SinewVec3){20.0f, 3.0f, 0.0f}, down, 10.0f, SINEW_LAYER_ALL, &rope_hit),
           SINEW_RESULT_OK);
    CHECK(rope_hit.hit == 1 && same_body(rope_hit.body, rope) && rope_hit.particle_count == 2);
    CHECK(rope_hit.particle_a + rope_hit.particle_b == 1 && rope_hit.particle_c == 0 && rope_hit.weight_c == 0.0f);
    CHECK(near(rope_hit.weight_a, 0.5f, 5e-7f) && near(rope_hit.weight_b, 0.5f, 5e-7f)); /* measured 0 */
    CHECK(near(rope_hit.distance, 3.0f - 1.15f, 5e-5f));                                 /* measured 1.4e-5 */
    EXPECT(sinew_world_raycast(w, above_ball, (SinewVec3){0, 0, 0}, 1.0f, SINEW_LAYER_ALL, &rh),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast(w, (SinewVec3){NAN, 0, 0}, down, 1.0f, SINEW_LAYER_ALL, &rh),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast(w, above_ball, (SinewVec3){0, -1, INFINITY}, 1.0f, SINEW_LAYER_ALL, &rh),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast(w, above_ball, down, 0.0f, SINEW_LAYER_ALL, &rh), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast(w, above_ball, down, NAN, SINEW_LAYER_ALL, &rh), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast(w, above_ball, down, 1.0f, SINEW_LAYER_ALL, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_raycast(NULL, above_ball, down, 1.0f, SINEW_LAYER_ALL, &rh), SINEW_RESULT_NULL_ARGUMENT);

    /* ---- an impulse at the rope's hit: 1 N s split half and half (1 kg each) ---- */
    SinewVec3 v0[2], v1[2];
    EXPECT(sinew_body_read_velocities(w, rope, v0, 2, NULL), SINEW_RESULT_OK);
    EXPECT(sinew_body_apply_hit_impulse(w, &rope_hit, (SinewVec3){0, 0, 1}), SINEW_RESULT_OK);
    EXPECT(sinew_body_read_velocities(w, rope, v1, 2, NULL), SINEW_RESULT_OK);
    printf("impulse at the rope's middle: velocity +%.4f and +%.4f m/s (0.5 each)\n", (double)(v1[0].z - v0[0].z),
           (double)(v1[1].z - v0[1].z));
    /* measured 0 (the bounds were 1e-3 and 1e-4) */
    CHECK(near(v1[0].z - v0[0].z, 0.5f, 5e-7f) && near(v1[1].z - v0[1].z, 0.5f, 5e-7f));
    CHECK(near(v1[0].y, v0[0].y, 5e-7f));
    SinewRayHit bad_hit = rope_hit;
    bad_hit.hit = 0;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT); /* a miss */
    bad_hit = rope_hit;
    bad_hit.particle_count = 0;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT);
    bad_hit.particle_count = 4;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT);
    bad_hit = rope_hit;
    bad_hit.particle_b = 2; /* the rope has 2 particles */
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT);
    bad_hit = rope_hit;
    bad_hit.weight_a = 1.5f;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT);
    bad_hit.weight_a = NAN;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_apply_hit_impulse(w, &rope_hit, (SinewVec3){0, NAN, 0}), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_apply_hit_impulse(w, &rope_hit, (SinewVec3){INFINITY, 0, 0}), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_apply_hit_impulse(w, NULL, up), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_apply_hit_impulse(NULL, &rope_hit, up), SINEW_RESULT_NULL_ARGUMENT);
    bad_hit = rope_hit;
    bad_hit.body = null_body;
    EXPECT(sinew_body_apply_hit_impulse(w, &bad_hit, up), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_read_velocities(w, rope, v0, 2, NULL), SINEW_RESULT_OK);
    CHECK(v0[0].z == v1[0].z && v0[1].z == v1[1].z); /* the refusals added nothing */

    /* ---- ray casts against colliders ---- */
    SinewColliderHit ch;
    memset(&ch, 0, sizeof ch);
    EXPECT(sinew_world_raycast_colliders(w, above_ball, down, INFINITY, SINEW_LAYER_ALL, &ch), SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, floor)); /* bodies are not in the way */
    /* every collider ray below measured 0 off: 4 ulp (the bounds were 1e-4, 1e-5, 1e-3 at 100 m) */
    CHECK(near(ch.distance, 5.0f, 2e-6f) && near(ch.point.y, 0.0f, 2e-6f) && near(ch.normal.y, 1.0f, 5e-7f));
    /* the mesh from below: two-sided, the normal faces the ray */
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){0.3f, -1.0f, 0.2f}, up, 10.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, floor) && near(ch.distance, 1.0f, 5e-7f));
    CHECK(near(ch.normal.y, -1.0f, 5e-7f));
    /* the heightfield is on layer 4 only */
    SinewVec3 above_hill = {11.2f, 5.0f, 0.7f};
    EXPECT(sinew_world_raycast_colliders(w, above_hill, down, 10.0f, SINEW_LAYER_DEFAULT, &ch), SINEW_RESULT_OK);
    CHECK(ch.hit == 0);
    EXPECT(sinew_world_raycast_colliders(w, above_hill, down, 10.0f, 4u, &ch), SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, field) && near(ch.distance, 5.0f, 2e-6f));
    /* the compound's parts where their transforms put them */
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){1, 5, 10}, down, 10.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, compound) && near(ch.distance, 4.7f, 2e-6f));
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){-1, 5, 10}, down, 10.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, compound) && near(ch.distance, 4.9f, 2e-6f));
    /* the hull (its empty mask stops collisions, not rays), the box, the plane */
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){-10, 5, 0}, down, 10.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, hull) && near(ch.distance, 4.5f, 2e-6f));
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){30, 5, 0}, down, 10.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, box_c) && near(ch.distance, 4.5f, 2e-6f));
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){50, 0, 0}, down, INFINITY, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 1 && same_collider(ch.collider, abyss) && near(ch.distance, 100.0f, 3e-5f));
    memset(&ch, 0xff, sizeof ch);
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){50, 0, 0}, up, INFINITY, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_OK);
    CHECK(ch.hit == 0 && ch.collider.index1 == 0 && ch.distance == 0.0f);
    EXPECT(sinew_world_raycast_colliders(w, above_ball, (SinewVec3){0, 0, 0}, 1.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast_colliders(w, (SinewVec3){0, NAN, 0}, down, 1.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast_colliders(w, above_ball, down, -1.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_raycast_colliders(w, above_ball, down, 1.0f, SINEW_LAYER_ALL, NULL),
           SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_raycast_colliders(NULL, above_ball, down, 1.0f, SINEW_LAYER_ALL, &ch),
           SINEW_RESULT_NULL_ARGUMENT);

    /* ---- the nearest particle ---- */
    SinewParticleHit ph;
    memset(&ph, 0, sizeof ph);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0.3f, 0.5f, 0.2f}, 1.0f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_OK);
    CHECK(ph.hit == 1 && same_body(ph.body, ball) && ph.particle == 0);
    /* measured 0 (the bounds were 3e-3 and 1e-3) */
    CHECK(near(ph.distance, 0.4f, 2e-7f) && near(ph.position.y, 0.1f, 2e-7f) && near(ph.position.x, 0.3f, 2e-7f));
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){1.0f, 0.2f, 10.0f}, 1.0f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_OK);
    CHECK(ph.hit == 1 && same_body(ph.body, perch) && ph.particle == 1);
    memset(&ph, 0xff, sizeof ph);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0.3f, 0.5f, 0.2f}, 0.3f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_OK);
    CHECK(ph.hit == 0 && ph.body.index1 == 0 && ph.distance == 0.0f);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0.3f, 0.5f, 0.2f}, INFINITY, 2u, &ph), SINEW_RESULT_OK);
    CHECK(ph.hit == 1 && same_body(ph.body, ghost)); /* the only body on layer 2, wherever it fell */
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0, 0, 0}, 0.0f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0, 0, 0}, NAN, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0, 0, INFINITY}, 1.0f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_nearest_particle(w, (SinewVec3){0, 0, 0}, 1.0f, SINEW_LAYER_ALL, NULL),
           SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_nearest_particle(NULL, (SinewVec3){0, 0, 0}, 1.0f, SINEW_LAYER_ALL, &ph),
           SINEW_RESULT_NULL_ARGUMENT);

    /* a hit on a destroyed body; a destroyed collider's material */
    SinewRayHit stale = rope_hit;
    EXPECT(sinew_body_destroy(w, rope), SINEW_RESULT_OK);
    EXPECT(sinew_body_apply_hit_impulse(w, &stale, up), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_destroy(w, floor), SINEW_RESULT_OK);
    EXPECT(sinew_collider_get_material(w, floor, &m), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_set_filter(w, floor, 1u, 1u), SINEW_RESULT_INVALID_ID);
    CHECK(sinew_collider_is_valid(w, ball_c) && sinew_collider_is_valid(w, pill_c));
    CHECK(sinew_collider_is_valid(w, bar_a) && sinew_collider_is_valid(w, bar_b) && !sinew_collider_is_valid(w, floor));
    sinew_world_destroy(w);
}

int main(void) {
    /* ---- version and errors ---- */
    CHECK(sinew_abi_version() == SINEW_ABI_VERSION);
    CHECK(strcmp(sinew_result_name(SINEW_RESULT_INVALID_ID), "SINEW_RESULT_INVALID_ID") == 0);
    CHECK(strcmp(sinew_result_name(12345), "SINEW_RESULT_UNKNOWN") == 0);

    /* ---- world ---- */
    SinewWorldDef def = sinew_default_world_def();
    CHECK(def.gravity.y < -9.8f && def.substeps >= 1 && def.iterations >= 1);
    SinewWorld* world = NULL;
    SinewWorldDef zero;
    memset(&zero, 0, sizeof zero);
    EXPECT(sinew_world_create(&zero, &world), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(world == NULL);
    {
        char small[8];
        size_t full = sinew_last_error_message(small, sizeof small);
        CHECK(full > 7 && strlen(small) == 7); /* snprintf semantics */
        CHECK(sinew_last_error_message(NULL, 0) == full);
    }
    EXPECT(sinew_world_create(NULL, &world), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_create(&def, NULL), SINEW_RESULT_NULL_ARGUMENT);
    SinewWorldDef bad_def = def;
    bad_def.substeps = 0;
    EXPECT(sinew_world_create(&bad_def, &world), SINEW_RESULT_INVALID_ARGUMENT);
    bad_def = def;
    bad_def.gravity.x = NAN;
    EXPECT(sinew_world_create(&bad_def, &world), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(world == NULL);
    EXPECT(sinew_world_create(&def, &world), SINEW_RESULT_OK);
    CHECK(world != NULL);
    SinewWorldDef got;
    EXPECT(sinew_world_get_def(world, &got), SINEW_RESULT_OK);
    CHECK(got.substeps == def.substeps && got.internal_cookie == def.internal_cookie);
    EXPECT(sinew_world_get_def(world, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_step(NULL, 1.0f / 60.0f), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_step(world, 0.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_step(world, -1.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_step(world, NAN), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_step(world, INFINITY), SINEW_RESULT_INVALID_ARGUMENT);
    SinewVec3 g = {0.0f, -9.81f, 0.0f};
    EXPECT(sinew_world_set_gravity(world, g), SINEW_RESULT_OK);
    SinewVec3 nan_g = {0.0f, NAN, 0.0f};
    EXPECT(sinew_world_set_gravity(world, nan_g), SINEW_RESULT_INVALID_ARGUMENT);
    SinewVec3 shift = {4.0f, 0.0f, -8.0f};
    EXPECT(sinew_world_shift_origin(world, shift), SINEW_RESULT_OK);
    EXPECT(sinew_world_shift_origin(world, nan_g), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_shift_origin(NULL, shift), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_state_hash(world, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_state_hash(NULL, NULL), SINEW_RESULT_NULL_ARGUMENT);

    /* ---- bodies ---- */
    SinewVec3 pos[4] = {{0, 1, 0}, {1, 1, 0}, {2, 1, 0}, {3, 1, 0}};
    float inv[4] = {0.0f, 1.0f, 1.0f, 1.0f};
    SinewBodyId body = {0, 0};
    EXPECT(sinew_body_create_particles(world, NULL, NULL, 4, &body), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_create_particles(world, pos, NULL, 0, &body), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_create_particles(world, pos, inv, 4, NULL), SINEW_RESULT_NULL_ARGUMENT);
    inv[2] = -1.0f;
    EXPECT(sinew_body_create_particles(world, pos, inv, 4, &body), SINEW_RESULT_INVALID_ARGUMENT);
    inv[2] = 1.0f;
    pos[3].z = INFINITY;
    EXPECT(sinew_body_create_particles(world, pos, inv, 4, &body), SINEW_RESULT_INVALID_ARGUMENT);
    pos[3].z = 0.0f;
    CHECK(body.index1 == 0 && body.generation == 0); /* untouched on failure */
    EXPECT(sinew_body_create_particles(world, pos, inv, 4, &body), SINEW_RESULT_OK);
    CHECK(sinew_body_is_valid(world, body) == 1);
    SinewBodyId null_body = {0, 0};
    CHECK(sinew_body_is_valid(world, null_body) == 0);
    CHECK(sinew_body_is_valid(NULL, body) == 0);
    uint32_t count = 0;
    EXPECT(sinew_body_particle_count(world, body, &count), SINEW_RESULT_OK);
    CHECK(count == 4);
    EXPECT(sinew_body_particle_count(world, null_body, &count), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_particle_count(world, body, NULL), SINEW_RESULT_NULL_ARGUMENT);

    uint64_t before = hash_of(world);
    SinewDistanceConstraint sticks[3] = {{0, 1, -1.0f, 0.0f}, {1, 2, -1.0f, 0.0f}, {2, 3, 1.0f, 1e-4f}};
    SinewDistanceConstraint bad_sticks[2] = {{0, 1, -1.0f, 0.0f}, {2, 9, -1.0f, 0.0f}};
    EXPECT(sinew_body_add_distance_constraints(world, body, bad_sticks, 2), SINEW_RESULT_INVALID_ARGUMENT);
    bad_sticks[1].b = 2;
    bad_sticks[1].compliance = -1.0f;
    EXPECT(sinew_body_add_distance_constraints(world, body, bad_sticks, 2), SINEW_RESULT_INVALID_ARGUMENT);
    bad_sticks[1].compliance = 0.0f;
    bad_sticks[1].a = 2;
    EXPECT(sinew_body_add_distance_constraints(world, body, bad_sticks, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_add_distance_constraints(world, body, NULL, 3), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_add_distance_constraints(world, null_body, sticks, 3), SINEW_RESULT_INVALID_ID);
    CHECK(hash_of(world) == before); /* refusals change nothing */
    EXPECT(sinew_body_add_distance_constraints(world, body, NULL, 0), SINEW_RESULT_OK);
    EXPECT(sinew_body_add_distance_constraints(world, body, sticks, 3), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_distance_method(world, body, SINEW_DISTANCE_METHOD_SQRT_APPROX), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_distance_method(world, body, 7u), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_distance_method(world, body, SINEW_DISTANCE_METHOD_EXACT), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(world, body, 0.05f), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_particle_radius(world, body, -0.05f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_particle_radius(world, body, NAN), SINEW_RESULT_INVALID_ARGUMENT);

    SinewTarget targets[1] = {{3, {3.0f, 2.0f, 0.0f}, 0.0f, 0.0f}};
    EXPECT(sinew_body_set_targets(world, body, targets, 1), SINEW_RESULT_OK);
    targets[0].particle = 4;
    EXPECT(sinew_body_set_targets(world, body, targets, 1), SINEW_RESULT_INVALID_ARGUMENT);
    targets[0].particle = 3;
    targets[0].max_force = -1.0f;
    EXPECT(sinew_body_set_targets(world, body, targets, 1), SINEW_RESULT_INVALID_ARGUMENT);
    targets[0].max_force = NAN;
    EXPECT(sinew_body_set_targets(world, body, targets, 1), SINEW_RESULT_INVALID_ARGUMENT);
    targets[0].max_force = INFINITY; /* unlimited */
    EXPECT(sinew_body_set_targets(world, body, targets, 1), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_targets(world, body, NULL, 1), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_clear_targets(world, body), SINEW_RESULT_OK);
    EXPECT(sinew_body_clear_targets(world, null_body), SINEW_RESULT_INVALID_ID);

    SinewVec3 to[2] = {{1, 2, 0}, {2, 2, 0}};
    EXPECT(sinew_body_set_positions(world, body, 1, to, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_positions(world, body, 3, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_positions(world, body, 0xFFFFFFFFu, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
    {
        /* A respawn: the whole body carried 10 m along +Z, at rest. */
        SinewTransform here = {{0, 0, 0}, {0, 0, 0, 1}};
        SinewTransform away = {{0, 0, 10}, {0, 0, 0, 1}};
        EXPECT(sinew_body_teleport(world, body, here, away, SINEW_TELEPORT_ZERO_VELOCITY), SINEW_RESULT_OK);
        EXPECT(sinew_body_teleport(world, body, away, here, SINEW_TELEPORT_KEEP_VELOCITY), SINEW_RESULT_OK);
        EXPECT(sinew_body_teleport(world, body, here, away, 2u), SINEW_RESULT_INVALID_ARGUMENT);
        EXPECT(sinew_body_teleport(world, null_body, here, away, 0u), SINEW_RESULT_INVALID_ID);
    }
    EXPECT(sinew_body_move_particles(world, body, 2, to, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_move_particles(world, body, 3, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_velocities(world, body, 2, to, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_velocities(world, body, 3, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_velocities(world, body, 0, NULL, 1), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_apply_forces(world, body, 1, to, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_apply_forces(world, body, 3, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
    float w1[1] = {2.0f};
    EXPECT(sinew_body_set_inv_masses(world, body, 3, w1, 1), SINEW_RESULT_OK);
    w1[0] = -2.0f;
    EXPECT(sinew_body_set_inv_masses(world, body, 3, w1, 1), SINEW_RESULT_INVALID_ARGUMENT);

    /* readback protocol */
    SinewVec3 out[4];
    memset(out, 0, sizeof out);
    count = 0;
    EXPECT(sinew_body_read_positions(world, body, NULL, 0, &count), SINEW_RESULT_OK);
    CHECK(count == 4);
    count = 0;
    EXPECT(sinew_body_read_positions(world, body, out, 2, &count), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(count == 4 && out[0].y == 0.0f); /* nothing written */
    EXPECT(sinew_body_read_positions(world, body, NULL, 4, &count), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_read_positions(world, body, out, 4, NULL), SINEW_RESULT_OK);
    CHECK(out[0].y == 1.0f && out[1].y == 2.0f);
    EXPECT(sinew_body_read_velocities(world, body, out, 4, &count), SINEW_RESULT_OK);
    CHECK(count == 4 && out[0].x == 0.0f);

    /* ---- colliders ---- */
    SinewColliderId ground = {0, 0}, ball, box, pill;
    SinewVec3 up = {0, 1, 0}, zero3 = {0, 0, 0};
    EXPECT(sinew_collider_create_plane(world, zero3, 0.0f, 0.5f, &ground), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_create_plane(world, up, 0.0f, -0.5f, &ground), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_create_plane(world, up, 0.0f, 0.5f, NULL), SINEW_RESULT_NULL_ARGUMENT);
    CHECK(ground.index1 == 0);
    EXPECT(sinew_collider_create_plane(world, up, 0.0f, 0.5f, &ground), SINEW_RESULT_OK);
    SinewVec3 c = {5, 0, 0};
    EXPECT(sinew_collider_create_sphere(world, c, 0.0f, 0.5f, &ball), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_create_sphere(world, c, 1.0f, 0.5f, &ball), SINEW_RESULT_OK);
    SinewTransform t = {{-5, 0, 0}, {0, 0, 0, 1}};
    SinewVec3 half = {1, 1, 1}, bad_half = {1, 0, 1};
    EXPECT(sinew_collider_create_box(world, t, bad_half, 0.5f, &box), SINEW_RESULT_INVALID_ARGUMENT);
    SinewTransform zero_rot = {{0, 0, 0}, {0, 0, 0, 0}};
    EXPECT(sinew_collider_create_box(world, zero_rot, half, 0.5f, &box), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_collider_create_box(world, t, half, 0.5f, &box), SINEW_RESULT_OK);
    SinewVec3 a = {0, 0, 5}, b = {0, 2, 5};
    EXPECT(sinew_collider_create_capsule(world, a, b, 0.3f, 0.5f, &pill), SINEW_RESULT_OK);
    b.y = NAN;
    EXPECT(sinew_collider_create_capsule(world, a, b, 0.3f, 0.5f, &pill), SINEW_RESULT_INVALID_ARGUMENT);
    SinewTransform moved = {{0, 1, 5}, {0, 0, 0, 2}}; /* not unit: normalised */
    EXPECT(sinew_collider_set_transform(world, pill, moved), SINEW_RESULT_OK);
    SinewTransform back;
    EXPECT(sinew_collider_get_transform(world, pill, &back), SINEW_RESULT_OK);
    CHECK(back.position.y == 1.0f && back.rotation.w == 1.0f);
    EXPECT(sinew_collider_set_transform(world, pill, zero_rot), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(sinew_collider_is_valid(world, ball) == 1);
    EXPECT(sinew_collider_destroy(world, ball), SINEW_RESULT_OK);
    CHECK(sinew_collider_is_valid(world, ball) == 0);
    EXPECT(sinew_collider_destroy(world, ball), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_set_transform(world, ball, moved), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_collider_get_transform(world, ball, &back), SINEW_RESULT_INVALID_ID);

    /* ---- stepping, snapshots ---- */
    for (int i = 0; i < 30; ++i) EXPECT(sinew_world_step(world, 1.0f / 60.0f), SINEW_RESULT_OK);
    size_t size = 0;
    EXPECT(sinew_world_snapshot(world, NULL, 0, &size), SINEW_RESULT_OK);
    CHECK(size > 0 && size < 4096);
    unsigned char image[4096];
    size_t needed = 0;
    EXPECT(sinew_world_snapshot(world, image, 3, &needed), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(needed == size);
    EXPECT(sinew_world_snapshot(world, NULL, 10, &needed), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_snapshot(world, image, sizeof image, NULL), SINEW_RESULT_OK);
    uint64_t at_snapshot = hash_of(world);
    for (int i = 0; i < 30; ++i) EXPECT(sinew_world_step(world, 1.0f / 60.0f), SINEW_RESULT_OK);
    uint64_t later = hash_of(world);
    CHECK(later != at_snapshot);

    /* a corrupted or truncated image is refused and changes nothing */
    image[size / 2] ^= 0x5a;
    EXPECT(sinew_world_restore(world, image, size), SINEW_RESULT_INCOMPATIBLE);
    image[size / 2] ^= 0x5a;
    EXPECT(sinew_world_restore(world, image, size - 1), SINEW_RESULT_INCOMPATIBLE);
    EXPECT(sinew_world_restore(world, NULL, 0), SINEW_RESULT_INCOMPATIBLE);
    EXPECT(sinew_world_restore(world, NULL, 8), SINEW_RESULT_NULL_ARGUMENT);
    CHECK(hash_of(world) == later);

    /* restore into a fresh world: same hash, same future */
    SinewWorld* other = NULL;
    EXPECT(sinew_world_create(&def, &other), SINEW_RESULT_OK);
    EXPECT(sinew_world_restore(other, image, size), SINEW_RESULT_OK);
    CHECK(hash_of(other) == at_snapshot);
    CHECK(sinew_body_is_valid(other, body) == 1); /* ids survive */
    for (int i = 0; i < 30; ++i) EXPECT(sinew_world_step(other, 1.0f / 60.0f), SINEW_RESULT_OK);
    CHECK(hash_of(other) == later);

    /* ---- destruction ---- */
    EXPECT(sinew_body_destroy(world, body), SINEW_RESULT_OK);
    CHECK(sinew_body_is_valid(world, body) == 0);
    EXPECT(sinew_body_destroy(world, body), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_read_positions(world, body, out, 4, &count), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_destroy(other, body), SINEW_RESULT_OK);
    sinew_world_destroy(world);
    sinew_world_destroy(other);
    sinew_world_destroy(NULL);

    /* ---- cloth ---- */
    SinewWorld* cw = NULL;
    EXPECT(sinew_world_create(&def, &cw), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_wind(cw, (SinewVec3){0, 0, 2}), SINEW_RESULT_OK);
    EXPECT(sinew_world_set_wind(cw, (SinewVec3){0, NAN, 2}), SINEW_RESULT_INVALID_ARGUMENT);
    SinewClothGridDef gd = sinew_default_cloth_grid_def();
    SinewClothGridDef zero_grid;
    memset(&zero_grid, 0, sizeof zero_grid);
    SinewBodyId cloth = {0, 0};
    EXPECT(sinew_cloth_create_grid(cw, &zero_grid, &cloth), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_create_grid(cw, NULL, &cloth), SINEW_RESULT_NULL_ARGUMENT);
    gd.columns = 1;
    EXPECT(sinew_cloth_create_grid(cw, &gd, &cloth), SINEW_RESULT_INVALID_ARGUMENT);
    gd.columns = 8;
    gd.spacing = 0.0f;
    EXPECT(sinew_cloth_create_grid(cw, &gd, &cloth), SINEW_RESULT_INVALID_ARGUMENT);
    gd.spacing = 0.1f;
    gd.tether_mode = 7;
    EXPECT(sinew_cloth_create_grid(cw, &gd, &cloth), SINEW_RESULT_INVALID_ARGUMENT);
    gd.tether_mode = SINEW_TETHER_GEODESIC;
    gd.bend_mode = 2;
    EXPECT(sinew_cloth_create_grid(cw, &gd, &cloth), SINEW_RESULT_INVALID_ARGUMENT);
    gd.bend_mode = SINEW_BEND_DIHEDRAL;
    gd.rows = 6;
    CHECK(cloth.index1 == 0);
    EXPECT(sinew_cloth_create_grid(cw, &gd, &cloth), SINEW_RESULT_OK);
    uint32_t n_cloth = 0;
    EXPECT(sinew_body_particle_count(cw, cloth, &n_cloth), SINEW_RESULT_OK);
    CHECK(n_cloth == 48);
    SinewVec3 normals[48];
    EXPECT(sinew_cloth_read_normals(cw, cloth, NULL, 0, &count), SINEW_RESULT_OK);
    CHECK(count == 48);
    EXPECT(sinew_cloth_read_normals(cw, cloth, normals, 10, &count), SINEW_RESULT_BUFFER_TOO_SMALL);
    EXPECT(sinew_cloth_read_normals(cw, cloth, normals, 48, &count), SINEW_RESULT_OK);
    CHECK(fabsf(normals[20].z - 1.0f) < 5e-7f); /* a grid at rest faces local +Z (measured 0) */
    EXPECT(sinew_cloth_read_normals(cw, body, normals, 48, &count), SINEW_RESULT_INVALID_ID);

    /* a mesh: two quads with a seam, welded */
    SinewVec3 mv[6] = {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}, {1, -1, 0}, {2, 0, 0}, {1, 0, 0}};
    uint32_t mi[9] = {0, 2, 3, 0, 3, 1, 5, 3, 4};
    uint8_t pins[6] = {1, 0, 0, 0, 1, 0};
    SinewClothMeshDef md = sinew_default_cloth_mesh_def();
    SinewBodyId mesh = {0, 0};
    EXPECT(sinew_cloth_create(cw, &md, &mesh), SINEW_RESULT_INVALID_ARGUMENT); /* no vertices */
    md.vertices = mv;
    md.vertex_count = 6;
    md.indices = mi;
    md.triangle_count = 3;
    md.pin_mask = pins;
    mi[8] = 6;
    EXPECT(sinew_cloth_create(cw, &md, &mesh), SINEW_RESULT_INVALID_ARGUMENT); /* index out of range */
    mi[8] = 4;
    md.indices = NULL;
    EXPECT(sinew_cloth_create(cw, &md, &mesh), SINEW_RESULT_NULL_ARGUMENT);
    md.indices = mi;
    EXPECT(sinew_cloth_create(cw, &md, &mesh), SINEW_RESULT_OK);
    uint32_t nv = 0, map[6];
    EXPECT(sinew_cloth_vertex_count(cw, mesh, &nv), SINEW_RESULT_OK);
    EXPECT(sinew_body_particle_count(cw, mesh, &count), SINEW_RESULT_OK);
    CHECK(nv == 6 && count == 5);
    EXPECT(sinew_cloth_read_vertex_map(cw, mesh, map, 6, &count), SINEW_RESULT_OK);
    CHECK(map[1] == map[5]);
    EXPECT(sinew_cloth_vertex_count(cw, body, &nv), SINEW_RESULT_INVALID_ID);

    /* interleaved vertex buffer: position + normal, 24-byte stride */
    float vb[6 * 6];
    EXPECT(sinew_cloth_write_vertices(cw, mesh, NULL, 0, NULL, 0, 0, &count), SINEW_RESULT_OK);
    CHECK(count == 6);
    EXPECT(sinew_cloth_write_vertices(cw, mesh, (uint8_t*)vb, 8, NULL, 0, 6, &count), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_write_vertices(cw, mesh, (uint8_t*)vb, 24, (uint8_t*)(vb + 3), 24, 5, &count),
           SINEW_RESULT_BUFFER_TOO_SMALL);
    EXPECT(sinew_cloth_write_vertices(cw, mesh, (uint8_t*)vb, 24, (uint8_t*)(vb + 3), 24, 6, &count), SINEW_RESULT_OK);
    CHECK(vb[5 * 6 + 0] == 1.0f && vb[1 * 6 + 0] == 1.0f); /* vertices 1 and 5 share a particle */
    CHECK(fabsf(vb[0 * 6 + 5] - 1.0f) < 5e-7f);           /* normal +Z (measured 0) */

    SinewVec3 lo, hi;
    EXPECT(sinew_body_get_bounds(cw, cloth, &lo, &hi), SINEW_RESULT_OK);
    CHECK(lo.x < 0.0f && hi.x > 0.69f && lo.y < -0.49f);
    EXPECT(sinew_body_get_bounds(cw, cloth, NULL, NULL), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_wind(cw, cloth, (SinewVec3){1, 0, 0}), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_wind(cw, cloth, (SinewVec3){INFINITY, 0, 0}), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_set_aerodynamics(cw, cloth, 1.2f, 0.2f), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_aerodynamics(cw, cloth, -1.0f, 0.2f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_set_compliance(cw, cloth, 1e-4f, 1e-5f, 1e-2f), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_compliance(cw, cloth, 0.0f, NAN, 1e-2f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_set_collision(cw, cloth, 1, 1), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_collision(cw, cloth, 2, 0), SINEW_RESULT_INVALID_ARGUMENT);

    /* skin: max distance and backstop */
    {
        SinewVec3 skin_p[48], skin_n[48];
        float maxd[48], back[48];
        EXPECT(sinew_body_read_positions(cw, cloth, skin_p, 48, &count), SINEW_RESULT_OK);
        for (int i = 0; i < 48; ++i) {
            skin_n[i] = (SinewVec3){0, 0, 1};
            maxd[i] = 0.1f;
            back[i] = 0.0f;
        }
        EXPECT(sinew_cloth_set_max_distances(cw, cloth, maxd, back, 48), SINEW_RESULT_INVALID_ARGUMENT); /* no skin */
        EXPECT(sinew_cloth_set_skin(cw, cloth, skin_p, skin_n, 47), SINEW_RESULT_INVALID_ARGUMENT);
        skin_n[3].z = 0.0f;
        EXPECT(sinew_cloth_set_skin(cw, cloth, skin_p, skin_n, 48), SINEW_RESULT_INVALID_ARGUMENT);
        skin_n[3].z = 1.0f;
        EXPECT(sinew_cloth_set_skin(cw, cloth, skin_p, skin_n, 48), SINEW_RESULT_OK);
        maxd[5] = -1.0f;
        EXPECT(sinew_cloth_set_max_distances(cw, cloth, maxd, back, 48), SINEW_RESULT_INVALID_ARGUMENT);
        maxd[5] = INFINITY;
        EXPECT(sinew_cloth_set_max_distances(cw, cloth, maxd, NULL, 48), SINEW_RESULT_OK);
        EXPECT(sinew_cloth_set_max_distances(cw, cloth, maxd, back, 48), SINEW_RESULT_OK);
    }

    /* SIMD level */
    uint32_t level = 0;
    EXPECT(sinew_world_get_simd_level(cw, &level), SINEW_RESULT_OK);
    CHECK(level >= SINEW_SIMD_SCALAR && level <= SINEW_SIMD_AVX512);
    EXPECT(sinew_world_get_simd_level(cw, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_get_simd_level(NULL, &level), SINEW_RESULT_NULL_ARGUMENT);

    /* recovery counter */
    uint64_t recoveries = 99;
    EXPECT(sinew_world_recovery_count(cw, &recoveries), SINEW_RESULT_OK);
    CHECK(recoveries == 0);
    EXPECT(sinew_world_recovery_count(cw, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_recovery_count(NULL, &recoveries), SINEW_RESULT_NULL_ARGUMENT);

    /* profile: all zero until a profiled step, then the step's stages */
    SinewProfile profile;
    memset(&profile, 0xff, sizeof profile);
    EXPECT(sinew_world_get_profile(cw, &profile), SINEW_RESULT_OK);
    CHECK(profile.step == 0.0f && profile.bones == 0.0f);
    EXPECT(sinew_world_set_profiling(cw, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_set_profiling(NULL, 1), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_get_profile(cw, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_set_profiling(cw, 1), SINEW_RESULT_OK);
    EXPECT(sinew_world_step(cw, 1.0f / 60.0f), SINEW_RESULT_OK);
    EXPECT(sinew_world_get_profile(cw, &profile), SINEW_RESULT_OK);
    CHECK(profile.step > 0.0f && profile.predict >= 0.0f && profile.predict <= profile.step);
    EXPECT(sinew_world_set_profiling(cw, 0), SINEW_RESULT_OK);

    /* frames */
    uint32_t top[3] = {0, 1, 2}, frame_index = 99;
    SinewTransform shoulder = {{0, 0, 0}, {0, 0, 0, 1}};
    EXPECT(sinew_body_attach_to_frame(cw, cloth, top, 0, shoulder, &frame_index), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_attach_to_frame(cw, cloth, NULL, 3, shoulder, &frame_index), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_attach_to_frame(cw, cloth, top, 3, zero_rot, &frame_index), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_attach_to_frame(cw, cloth, top, 3, shoulder, &frame_index), SINEW_RESULT_OK);
    CHECK(frame_index == 0);
    shoulder.position.y = 0.1f;
    EXPECT(sinew_body_set_frame(cw, cloth, 0, shoulder), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_frame(cw, cloth, 1, shoulder), SINEW_RESULT_INVALID_ARGUMENT);

    /* joints, sleep */
    SinewBodyId weight;
    SinewVec3 wp = {0.7f, 0.0f, 0.0f};
    EXPECT(sinew_body_create_particles(cw, &wp, NULL, 1, &weight), SINEW_RESULT_OK);
    SinewJointId joint = {0, 0};
    EXPECT(sinew_joint_create(cw, cloth, 7, weight, 1, 0.0f, 0.0f, &joint), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_joint_create(cw, cloth, 7, weight, 0, 0.0f, -1.0f, &joint), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_joint_create(cw, body, 7, weight, 0, 0.0f, 0.0f, &joint), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_joint_create(cw, cloth, 47, weight, 0, -1.0f, 0.0f, &joint), SINEW_RESULT_OK);
    CHECK(sinew_joint_is_valid(cw, joint) == 1);
    for (int i = 0; i < 30; ++i) EXPECT(sinew_world_step(cw, 1.0f / 60.0f), SINEW_RESULT_OK);
    SinewBool asleep = 7;
    EXPECT(sinew_body_is_sleeping(cw, cloth, &asleep), SINEW_RESULT_OK);
    CHECK(asleep == 0);
    EXPECT(sinew_body_set_sleeping(cw, cloth, 1), SINEW_RESULT_OK);
    EXPECT(sinew_body_is_sleeping(cw, cloth, &asleep), SINEW_RESULT_OK);
    CHECK(asleep == 1);
    EXPECT(sinew_body_set_sleeping(cw, cloth, 3), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_is_sleeping(cw, cloth, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_joint_destroy(cw, joint), SINEW_RESULT_OK);
    CHECK(sinew_joint_is_valid(cw, joint) == 0);
    EXPECT(sinew_joint_destroy(cw, joint), SINEW_RESULT_INVALID_ID);
    sinew_world_destroy(cw);


    /* Ragdolls: the humanoid preset and a skeleton of the engine's own. */
    SinewWorld* rw = NULL;
    EXPECT(sinew_world_create(&def, &rw), SINEW_RESULT_OK);
    SinewTransform at = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    SinewBodyId doll = {0, 0};
    EXPECT(sinew_ragdoll_create_humanoid(rw, at, -1.0f, &doll), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_create_humanoid(rw, at, 1.8f, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_ragdoll_create_humanoid(rw, at, 1.8f, &doll), SINEW_RESULT_OK);
    uint32_t bone_count = 0;
    EXPECT(sinew_ragdoll_bone_count(rw, doll, &bone_count), SINEW_RESULT_OK);
    CHECK(bone_count == 17);
    SinewTransform pose[17];
    uint32_t got_bones = 0;
    EXPECT(sinew_ragdoll_read_bones(rw, doll, NULL, 0, &got_bones), SINEW_RESULT_OK);
    CHECK(got_bones == 17);
    got_bones = 0;
    EXPECT(sinew_ragdoll_read_bones(rw, doll, pose, 5, &got_bones), SINEW_RESULT_BUFFER_TOO_SMALL);
    CHECK(got_bones == 17);
    EXPECT(sinew_ragdoll_read_bones(rw, doll, pose, 17, &got_bones), SINEW_RESULT_OK);
    CHECK(fabsf(pose[0].position.y - 0.95f) < 2e-6f); /* the pelvis at rest: measured 0 (the bound was 1e-3) */
    SinewBoneShape shapes[17];
    EXPECT(sinew_ragdoll_read_bone_shapes(rw, doll, shapes, 5, &got_bones), SINEW_RESULT_BUFFER_TOO_SMALL);
    EXPECT(sinew_ragdoll_read_bone_shapes(rw, doll, shapes, 17, &got_bones), SINEW_RESULT_OK);
    CHECK(got_bones == 17 && shapes[0].parent == -1 && shapes[1].parent == 0);
    CHECK(shapes[4].radius > 0.05f && shapes[4].length > 0.1f && shapes[4].mass > 1.0f);
    EXPECT(sinew_ragdoll_read_bone_shapes(rw, (SinewBodyId){0}, shapes, 17, NULL), SINEW_RESULT_INVALID_ID);
    uint32_t head = 99;
    EXPECT(sinew_ragdoll_find_bone(rw, doll, "head", &head), SINEW_RESULT_OK);
    CHECK(head == 4);
    EXPECT(sinew_ragdoll_find_bone(rw, doll, "tail", &head), SINEW_RESULT_INVALID_ARGUMENT);
    CHECK(head == 4);
    EXPECT(sinew_ragdoll_set_pose(rw, doll, pose, NULL, 17, 0.0f), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_pose(rw, doll, pose, pose, 17, 0.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_pose(rw, doll, pose, NULL, 16, 0.0f), SINEW_RESULT_INVALID_ARGUMENT);
    SinewVec3 push = {0.0f, 0.0f, 10.0f};
    EXPECT(sinew_ragdoll_apply_impulse(rw, doll, 2, pose[2].position, push), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_apply_impulse(rw, doll, 17, pose[2].position, push), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_bone_count(rw, null_body, &bone_count), SINEW_RESULT_INVALID_ID);
    /* A body that passes through the chest and head (as a cape through the
     * shoulders it hangs from), then through nothing; gone again. */
    SinewVec3 bead = {50.0f, 3.0f, 0.0f};
    SinewBodyId cape = {0, 0};
    EXPECT(sinew_body_create_particles(rw, &bead, NULL, 1, &cape), SINEW_RESULT_OK);
    const uint32_t ignored[2] = {2u, 4u};
    EXPECT(sinew_body_set_ignored_bones(rw, cape, doll, ignored, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_set_ignored_bones(rw, doll, doll, ignored, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_body_set_ignored_bones(rw, doll, cape, ignored, 2), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_body_set_ignored_bones(rw, cape, null_body, ignored, 2), SINEW_RESULT_INVALID_ID);
    EXPECT(sinew_body_set_ignored_bones(rw, cape, doll, NULL, 2), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_body_set_ignored_bones(rw, cape, doll, NULL, 0), SINEW_RESULT_OK);
    EXPECT(sinew_body_destroy(rw, cape), SINEW_RESULT_OK);

    SinewBoneDef bones[2];
    bones[0] = sinew_default_bone_def();
    bones[0].name = "upper";
    bones[0].rest.position.y = 2.0f;
    bones[0].length = 0.5f;
    bones[1] = sinew_default_bone_def();
    bones[1].name = "lower";
    bones[1].parent = 0;
    bones[1].rest.position.y = 2.5f;
    bones[1].length = 0.4f;
    bones[1].limit_type = SINEW_LIMIT_HINGE;
    SinewRagdollDef rd = sinew_default_ragdoll_def();
    rd.bones = bones;
    rd.bone_count = 2;
    SinewBodyId chain = {0, 0};
    SinewRagdollDef zeroed;
    memset(&zeroed, 0, sizeof zeroed);
    EXPECT(sinew_ragdoll_create(rw, &zeroed, &chain), SINEW_RESULT_INVALID_ARGUMENT);
    bones[1].parent = 1; /* not before its child */
    EXPECT(sinew_ragdoll_create(rw, &rd, &chain), SINEW_RESULT_INVALID_ARGUMENT);
    bones[1].parent = 0;
    bones[1].limit_type = 7;
    EXPECT(sinew_ragdoll_create(rw, &rd, &chain), SINEW_RESULT_INVALID_ARGUMENT);
    bones[1].limit_type = SINEW_LIMIT_HINGE;
    CHECK(chain.index1 == 0);
    EXPECT(sinew_ragdoll_create(rw, &rd, &chain), SINEW_RESULT_OK);
    uint32_t lower = 0;
    EXPECT(sinew_ragdoll_find_bone(rw, chain, "lower", &lower), SINEW_RESULT_OK);
    CHECK(lower == 1);
    SinewBodyId dot;
    SinewVec3 dot_at = {5.0f, 1.0f, 0.0f};
    EXPECT(sinew_body_create_particles(rw, &dot_at, NULL, 1, &dot), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_bone_count(rw, dot, &bone_count), SINEW_RESULT_WRONG_KIND);

    /* Skeletons: built once, shared by ragdolls, alive while any ragdoll of
     * them is (valgrind checks the handle released before its ragdolls). */
    SinewSkeleton* skeleton = NULL;
    EXPECT(sinew_skeleton_create(&zeroed, &skeleton), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_skeleton_create(&rd, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_skeleton_create(NULL, &skeleton), SINEW_RESULT_NULL_ARGUMENT);
    CHECK(skeleton == NULL);
    EXPECT(sinew_skeleton_create(&rd, &skeleton), SINEW_RESULT_OK);
    EXPECT(sinew_skeleton_bone_count(skeleton, &bone_count), SINEW_RESULT_OK);
    CHECK(bone_count == 2);
    sinew_skeleton_destroy(skeleton);
    SinewSkeleton* figure = NULL;
    EXPECT(sinew_skeleton_create_humanoid(0.0f, &figure), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_skeleton_create_humanoid(1.7f, &figure), SINEW_RESULT_OK);
    EXPECT(sinew_skeleton_bone_count(NULL, &bone_count), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_skeleton_bone_count(figure, NULL), SINEW_RESULT_NULL_ARGUMENT);
    SinewTransform spot = {{-4.0f, 0.0f, 2.0f}, {0.0f, 0.7071068f, 0.0f, 0.7071068f}};
    SinewBodyId twins[2];
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, NULL, spot, &twins[0]), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, figure, spot, NULL), SINEW_RESULT_NULL_ARGUMENT);
    SinewTransform nowhere = spot;
    nowhere.rotation = (SinewQuat){0.0f, 0.0f, 0.0f, 0.0f};
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, figure, nowhere, &twins[0]), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, figure, spot, &twins[0]), SINEW_RESULT_OK);
    spot.position.x = -6.0f;
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, figure, spot, &twins[1]), SINEW_RESULT_OK);
    sinew_skeleton_destroy(figure); /* the twins keep it */
    sinew_skeleton_destroy(NULL);
    EXPECT(sinew_ragdoll_bone_count(rw, twins[1], &bone_count), SINEW_RESULT_OK);
    CHECK(bone_count == 17);
    SinewSkeleton* again = NULL;
    EXPECT(sinew_ragdoll_get_skeleton(rw, dot, &again), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_get_skeleton(rw, twins[0], NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_ragdoll_get_skeleton(rw, twins[0], &again), SINEW_RESULT_OK);
    EXPECT(sinew_body_destroy(rw, twins[0]), SINEW_RESULT_OK);
    EXPECT(sinew_body_destroy(rw, twins[1]), SINEW_RESULT_OK);
    SinewBodyId third = {0, 0};
    EXPECT(sinew_ragdoll_create_from_skeleton(rw, again, spot, &third), SINEW_RESULT_OK);
    sinew_skeleton_destroy(again);

    /* motors: targets (world and local), strength, one bone, root motion */
    EXPECT(sinew_ragdoll_set_motor_targets(rw, doll, pose, 17), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_targets(rw, doll, pose, 16), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_targets(rw, doll, NULL, 17), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_targets(rw, dot, pose, 17), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_set_motor_targets(rw, null_body, pose, 17), SINEW_RESULT_INVALID_ID);
    SinewTransform bad_pose[17];
    memcpy(bad_pose, pose, sizeof bad_pose);
    bad_pose[3].position.x = NAN;
    EXPECT(sinew_ragdoll_set_motor_targets(rw, doll, bad_pose, 17), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_targets_local(rw, doll, bad_pose, 17), SINEW_RESULT_INVALID_ARGUMENT);
    SinewTransform local_pose[17];
    for (int b = 0; b < 17; ++b) {
        local_pose[b].position = (SinewVec3){0.0f, 0.1f, 0.0f};
        local_pose[b].rotation = (SinewQuat){0.0f, 0.0f, 0.0f, 1.0f};
    }
    local_pose[0] = pose[0];
    EXPECT(sinew_ragdoll_set_motor_targets_local(rw, doll, local_pose, 17), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_targets_local(rw, doll, local_pose, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_targets(rw, doll, pose, 17), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_strength(rw, doll, 0.8f, 1500.0f), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_strength(rw, doll, 1.5f, 0.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_strength(rw, doll, NAN, 0.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_strength(rw, doll, 1.0f, -1.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_strength(rw, dot, 1.0f, 0.0f), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_set_bone_motor(rw, doll, 4, 0.5f, 0.0f, 20.0f), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_bone_motor(rw, doll, 17, 0.5f, 0.0f, 20.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_bone_motor(rw, doll, 4, -0.5f, 0.0f, 20.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_bone_motor(rw, doll, 4, 0.5f, 0.0f, -20.0f), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_bone_motor(rw, dot, 0, 0.5f, 0.0f, 0.0f), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_set_motor_root_motion(rw, doll, 0), SINEW_RESULT_OK);
    EXPECT(sinew_ragdoll_set_motor_root_motion(rw, doll, 2), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_set_motor_root_motion(rw, dot, 1), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_ragdoll_set_motor_root_motion(rw, doll, 1), SINEW_RESULT_OK);
    for (int i = 0; i < 10; ++i) EXPECT(sinew_world_step(rw, 1.0f / 60.0f), SINEW_RESULT_OK);

    /* rigid bodies: a tetrahedron box and a shape-matched convex, bad defs refused */
    SinewRigidDef rig = sinew_default_rigid_def();
    SinewRigidDef rig_zeroed;
    memset(&rig_zeroed, 0, sizeof rig_zeroed);
    SinewBodyId crate = {0, 0}, pebble = {0, 0};
    EXPECT(sinew_rigid_create(rw, &rig_zeroed, &crate), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_rigid_create(rw, NULL, &crate), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_rigid_create(rw, &rig, NULL), SINEW_RESULT_NULL_ARGUMENT);
    rig.shape = 9;
    EXPECT(sinew_rigid_create(rw, &rig, &crate), SINEW_RESULT_INVALID_ARGUMENT);
    rig.shape = SINEW_SHAPE_BOX;
    rig.model = 9;
    EXPECT(sinew_rigid_create(rw, &rig, &crate), SINEW_RESULT_INVALID_ARGUMENT);
    rig.model = SINEW_RIGID_TETRAHEDRON;
    rig.mass = NAN;
    EXPECT(sinew_rigid_create(rw, &rig, &crate), SINEW_RESULT_INVALID_ARGUMENT);
    rig.mass = 2.0f;
    rig.half_extents.y = 0.0f;
    EXPECT(sinew_rigid_create(rw, &rig, &crate), SINEW_RESULT_INVALID_ARGUMENT);
    rig.half_extents.y = 0.25f;
    rig.transform.position.x = -5.0f;
    rig.transform.position.y = 3.0f;
    CHECK(crate.index1 == 0);
    EXPECT(sinew_rigid_create(rw, &rig, &crate), SINEW_RESULT_OK);
    SinewRigidDef rock = sinew_default_rigid_def();
    rock.shape = SINEW_SHAPE_CONVEX;
    rock.model = SINEW_RIGID_SHAPE_MATCHED;
    rock.point_count = 4;
    EXPECT(sinew_rigid_create(rw, &rock, &pebble), SINEW_RESULT_NULL_ARGUMENT);
    SinewVec3 rock_points[4] = {{0, 0, 0}, {0.3f, 0, 0}, {0, 0.3f, 0}, {0, 0, 0.3f}};
    rock.points = rock_points;
    rock.stiffness = 1.5f;
    EXPECT(sinew_rigid_create(rw, &rock, &pebble), SINEW_RESULT_INVALID_ARGUMENT);
    rock.stiffness = 0.8f;
    rock.transform.position.x = -8.0f;
    EXPECT(sinew_rigid_create(rw, &rock, &pebble), SINEW_RESULT_OK);
    SinewTransform crate_at;
    EXPECT(sinew_rigid_read_transform(rw, crate, &crate_at), SINEW_RESULT_OK);
    CHECK(fabsf(crate_at.position.x + 5.0f) < 2e-6f && fabsf(crate_at.position.y - 3.0f) < 2e-6f); /* 0 */
    EXPECT(sinew_rigid_read_transform(rw, crate, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_rigid_read_transform(rw, dot, &crate_at), SINEW_RESULT_WRONG_KIND);
    EXPECT(sinew_rigid_read_transform(rw, null_body, &crate_at), SINEW_RESULT_INVALID_ID);
    SinewVec3 kick = {0.0f, 0.0f, 1.0f}, bad_kick = {NAN, 0.0f, 0.0f};
    EXPECT(sinew_rigid_apply_impulse(rw, crate, crate_at.position, kick), SINEW_RESULT_OK);
    EXPECT(sinew_rigid_apply_impulse(rw, crate, crate_at.position, bad_kick), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_rigid_apply_impulse(rw, doll, crate_at.position, kick), SINEW_RESULT_WRONG_KIND);
    uint32_t pushed = 0;
    EXPECT(sinew_world_explode(rw, crate_at.position, 1.0f, 2.0f, &pushed), SINEW_RESULT_OK);
    CHECK(pushed == 4); /* the crate's tetrahedron; the rock is 3 m away */
    EXPECT(sinew_world_explode(rw, crate_at.position, -1.0f, 2.0f, NULL), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_world_explode(NULL, crate_at.position, 1.0f, 2.0f, NULL), SINEW_RESULT_NULL_ARGUMENT);
    for (int i = 0; i < 10; ++i) EXPECT(sinew_world_step(rw, 1.0f / 60.0f), SINEW_RESULT_OK);
    sinew_world_destroy(rw);

    check_shapes_and_queries(&def);
    check_workers(&def);
    check_live_settings(&def);
    check_far(&def);

    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("smoke test: all checks passed\n");
    return 0;
}
