/* terrain.c: loose particles and a chain of links dropped onto a triangle-
 * mesh terrain (a rolling landscape of 20,000 triangles). The chain's links
 * are collision sticks (capsules between its particles), so it lies on the
 * ridges along its whole length. Prints the lowest clearance over the
 * terrain each half second and the contacts of the last step; checks that
 * nothing sank more than 1 cm and that a ray cast down finds the surface.
 *
 * Build (from the repository root, after `cargo build --release`):
 *   cc -std=c99 -Iinclude examples_c/terrain.c -Ltarget/release -lsinew \
 *      -Wl,-rpath,$PWD/target/release -lm -o terrain && ./terrain
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "sinew.h"

#define CELLS 100   /* cells per side: 2 * 100 * 100 triangles */
#define SIZE 20.0f  /* metres per side */
#define LINKS 16
#define LOOSE 40
#define RADIUS 0.03f

/* Prints the failed call, its code and sinew's message, then returns 1. */
static int check(SinewResult r, const char* what) {
    if (r != SINEW_RESULT_OK) {
        char message[256];
        sinew_last_error_message(message, sizeof message);
        fprintf(stderr, "%s failed: %s (%s)\n", what, sinew_result_name(r), message);
        return 1;
    }
    return 0;
}

static float height(float x, float z) {
    return 0.4f * sinf(x * 0.6f) * cosf(z * 0.45f) + 0.08f * sinf(x * 2.1f + z * 1.3f);
}

/* The terrain's height under (x, z) on its triangles (the mesh is flat
 * between vertices), for measuring clearance. */
static float mesh_height(float x, float z) {
    float step = SIZE / CELLS;
    float u = (x + SIZE / 2) / step, v = (z + SIZE / 2) / step;
    int c = (int)floorf(u), r = (int)floorf(v);
    float fu = u - (float)c, fv = v - (float)r;
    float x0 = c * step - SIZE / 2, z0 = r * step - SIZE / 2;
    float h00 = height(x0, z0), h10 = height(x0 + step, z0);
    float h01 = height(x0, z0 + step), h11 = height(x0 + step, z0 + step);
    /* Triangles (v, v+n+1, v+1) and (v+1, v+n+1, v+n+2): split along u + v = 1. */
    if (fu + fv <= 1.0f) return h00 + (h10 - h00) * fu + (h01 - h00) * fv;
    return h11 + (h01 - h11) * (1.0f - fu) + (h10 - h11) * (1.0f - fv);
}

int main(void) {
    SinewWorldDef def = sinew_default_world_def();
    SinewWorld* world = NULL;
    if (check(sinew_world_create(&def, &world), "sinew_world_create")) return 1;

    /* The terrain: a grid of vertices, two triangles per cell. */
    int n = CELLS + 1;
    SinewVec3* vertices = malloc(sizeof(SinewVec3) * (size_t)(n * n));
    uint32_t* indices = malloc(sizeof(uint32_t) * (size_t)(CELLS * CELLS * 6));
    if (!vertices || !indices) return 1;
    float step = SIZE / CELLS;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            float x = c * step - SIZE / 2, z = r * step - SIZE / 2;
            SinewVec3 v = {x, height(x, z), z};
            vertices[r * n + c] = v;
        }
    }
    uint32_t* out = indices;
    for (int r = 0; r < CELLS; ++r) {
        for (int c = 0; c < CELLS; ++c) {
            uint32_t v = (uint32_t)(r * n + c), w = (uint32_t)n;
            uint32_t tri[6] = {v, v + w, v + 1, v + 1, v + w, v + w + 1};
            for (int k = 0; k < 6; ++k) *out++ = tri[k];
        }
    }
    SinewColliderDef ground = sinew_default_collider_def();
    ground.shape = SINEW_SHAPE_MESH;
    ground.points = vertices;
    ground.point_count = (uint32_t)(n * n);
    ground.indices = indices;
    ground.index_count = (uint32_t)(CELLS * CELLS * 6);
    ground.material.friction = 0.7f;
    ground.material.dynamic_friction = 0.5f;
    SinewColliderId terrain;
    if (check(sinew_collider_create(world, &ground, &terrain), "sinew_collider_create")) return 1;
    free(vertices); /* the library keeps its own copy */
    free(indices);

    /* A chain of 16 links, 0.2 m each, dropped tilted from 2 m. */
    SinewVec3 links[LINKS];
    for (int i = 0; i < LINKS; ++i) {
        SinewVec3 p = {-1.5f + 0.2f * (float)i, 2.0f + 0.05f * (float)i, 0.4f};
        links[i] = p;
    }
    SinewBodyId chain;
    if (check(sinew_body_create_particles(world, links, NULL, LINKS, &chain), "create chain")) return 1;
    SinewDistanceConstraint sticks[LINKS - 1];
    SinewCollisionStick capsules[LINKS - 1];
    for (uint32_t i = 0; i + 1 < LINKS; ++i) {
        SinewDistanceConstraint s = {i, i + 1, -1.0f, 0.0f};
        SinewCollisionStick c = {i, i + 1, RADIUS};
        sticks[i] = s;
        capsules[i] = c;
    }
    if (check(sinew_body_add_distance_constraints(world, chain, sticks, LINKS - 1), "sticks")) return 1;
    if (check(sinew_body_add_collision_sticks(world, chain, capsules, LINKS - 1), "collision sticks")) return 1;
    if (check(sinew_body_set_particle_radius(world, chain, RADIUS), "radius")) return 1;

    /* Loose particles rained from 3 m over a 4 x 4 m patch. */
    SinewVec3 drops[LOOSE];
    for (int i = 0; i < LOOSE; ++i) {
        SinewVec3 p = {-2.0f + 0.5f * (float)(i % 8), 3.0f, -2.0f + 0.8f * (float)(i / 8)};
        drops[i] = p;
    }
    SinewBodyId loose;
    if (check(sinew_body_create_particles(world, drops, NULL, LOOSE, &loose), "create loose")) return 1;
    if (check(sinew_body_set_particle_radius(world, loose, RADIUS), "radius")) return 1;

    float worst = 1.0f;
    uint32_t contacts = 0;
    SinewVec3 pos[LOOSE > LINKS ? LOOSE : LINKS];
    for (int frame = 1; frame <= 180; ++frame) {
        if (check(sinew_world_step(world, 1.0f / 60.0f), "sinew_world_step")) return 1;
        float lowest = 1e9f;
        SinewBodyId bodies[2] = {chain, loose};
        uint32_t counts[2] = {LINKS, LOOSE};
        for (int b = 0; b < 2; ++b) {
            uint32_t got;
            if (check(sinew_body_read_positions(world, bodies[b], pos, counts[b], &got), "read")) return 1;
            for (uint32_t i = 0; i < got; ++i) {
                float clearance = pos[i].y - mesh_height(pos[i].x, pos[i].z) - RADIUS;
                if (clearance < lowest) lowest = clearance;
            }
        }
        if (lowest < worst) worst = lowest;
        if (frame % 30 == 0) printf("t = %.1f s: lowest clearance %+.4f m\n", frame / 60.0f, lowest);
        if (frame == 60) {
            /* Landed, not yet asleep (a sleeping body reports no contacts). */
            /* One per particle on the terrain, then one per pair of pieces of two bodies
               that touch each other (the loose particles and the chain's links). */
            enum { CAPACITY = 8 * (LOOSE + LINKS) };
            static SinewContact touching[CAPACITY];
            uint32_t all = 0, between = 0;
            if (check(sinew_world_read_contacts(world, touching, CAPACITY, &all), "contacts")) return 1;
            float fastest = 0.0f;
            for (uint32_t i = 0; i < all; ++i) {
                if (touching[i].other_body.index1 != 0) {
                    ++between;
                    continue;
                }
                if (touching[i].collider.index1 != terrain.index1) {
                    fprintf(stderr, "FAILED: a contact with a collider other than the terrain\n");
                    return 1;
                }
                ++contacts;
                if (touching[i].speed > fastest) fastest = touching[i].speed;
            }
            printf("t = 1.0 s: %u particles touch the terrain (fastest approach this step %.3f m/s), %u contacts "
                   "between the bodies\n",
                   contacts, fastest, between);
        }
    }

    SinewVec3 origin = {0.3f, 10.0f, 0.7f}, down = {0.0f, -1.0f, 0.0f};
    SinewColliderHit hit;
    if (check(sinew_world_raycast_colliders(world, origin, down, 100.0f, SINEW_LAYER_ALL, &hit), "raycast")) return 1;
    float expected = 10.0f - mesh_height(0.3f, 0.7f);
    printf("ray down from 10 m: hit %u at %.4f m (terrain %.4f m)\n", hit.hit, hit.distance, expected);

    sinew_world_destroy(world);
    if (worst < -0.01f) {
        fprintf(stderr, "FAILED: something sank %.4f m into the terrain\n", -worst);
        return 1;
    }
    /* the ray's distance to an ulp (measured 9.5e-7 m; the bound was 1 mm) */
    if (!hit.hit || hit.collider.index1 != terrain.index1 || fabsf(hit.distance - expected) > 5e-6f) {
        fprintf(stderr, "FAILED: the ray did not find the terrain\n");
        return 1;
    }
    if (contacts == 0) {
        fprintf(stderr, "FAILED: nothing rests on the terrain\n");
        return 1;
    }
    printf("ok: nothing sank more than 1 cm (deepest %.4f m)\n", worst < 0.0f ? -worst : 0.0f);
    return 0;
}
