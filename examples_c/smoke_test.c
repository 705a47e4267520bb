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
    EXPECT(sinew_body_move_particles(world, body, 2, to, 2), SINEW_RESULT_OK);
    EXPECT(sinew_body_move_particles(world, body, 3, to, 2), SINEW_RESULT_INVALID_ARGUMENT);
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
    CHECK(fabsf(normals[20].z - 1.0f) < 1e-5f); /* a grid at rest faces local +Z */
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
    CHECK(fabsf(vb[0 * 6 + 5] - 1.0f) < 1e-5f);           /* normal +Z */

    SinewVec3 lo, hi;
    EXPECT(sinew_body_get_bounds(cw, cloth, &lo, &hi), SINEW_RESULT_OK);
    CHECK(lo.x < 0.0f && hi.x > 0.69f && lo.y < -0.49f);
    EXPECT(sinew_body_get_bounds(cw, cloth, NULL, NULL), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_wind(cw, cloth, (SinewVec3){1, 0, 0}), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_wind(cw, cloth, (SinewVec3){INFINITY, 0, 0}), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_cloth_set_aerodynamics(cw, cloth, 1.2f, 0.2f), SINEW_RESULT_OK);
    EXPECT(sinew_cloth_set_aerodynamics(cw, cloth, -1.0f, 0.2f), SINEW_RESULT_INVALID_ARGUMENT);
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

    /* recovery counter */
    uint64_t recoveries = 99;
    EXPECT(sinew_world_recovery_count(cw, &recoveries), SINEW_RESULT_OK);
    CHECK(recoveries == 0);
    EXPECT(sinew_world_recovery_count(cw, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_world_recovery_count(NULL, &recoveries), SINEW_RESULT_NULL_ARGUMENT);

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
    SinewTransform root = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    SinewBodyId doll = {0, 0};
    EXPECT(sinew_ragdoll_create_humanoid(rw, root, -1.0f, &doll), SINEW_RESULT_INVALID_ARGUMENT);
    EXPECT(sinew_ragdoll_create_humanoid(rw, root, 1.8f, NULL), SINEW_RESULT_NULL_ARGUMENT);
    EXPECT(sinew_ragdoll_create_humanoid(rw, root, 1.8f, &doll), SINEW_RESULT_OK);
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
    CHECK(fabsf(pose[0].position.y - 0.95f) < 1e-3f); /* the pelvis at rest */
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
    CHECK(fabsf(crate_at.position.x + 5.0f) < 1e-4f && fabsf(crate_at.position.y - 3.0f) < 1e-4f);
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

    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("smoke test: all checks passed\n");
    return 0;
}
