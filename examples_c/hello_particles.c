/* hello_particles.c: a rope of 20 particles, pinned at one end, falls from
 * the horizontal onto a ball and ends draped over it, its free end swinging
 * below. Prints the free end once per simulated second.
 *
 * Build (from the repository root, after `cargo build --release`):
 *   cc -std=c99 -Iinclude examples_c/hello_particles.c -Ltarget/release -lsinew \
 *      -Wl,-rpath,$PWD/target/release -lm -o hello_particles && ./hello_particles
 */
#include <math.h>
#include <stdio.h>
#include "sinew.h"

#define N 20

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

int main(void) {
    SinewWorldDef def = sinew_default_world_def();
    SinewWorld* world = NULL;
    if (check(sinew_world_create(&def, &world), "sinew_world_create")) return 1;

    /* A horizontal rope along +X from the origin, 0.1 m between particles. */
    SinewVec3 positions[N];
    float inv_masses[N];
    for (int i = 0; i < N; ++i) {
        positions[i].x = 0.1f * (float)i;
        positions[i].y = 0.0f;
        positions[i].z = 0.0f;
        inv_masses[i] = (i == 0) ? 0.0f : 1.0f; /* pin the first particle */
    }
    SinewBodyId rope;
    if (check(sinew_body_create_particles(world, positions, inv_masses, N, &rope), "create")) return 1;

    SinewDistanceConstraint sticks[N - 1];
    for (int i = 0; i < N - 1; ++i) {
        sticks[i].a = (uint32_t)i;
        sticks[i].b = (uint32_t)i + 1;
        sticks[i].rest_length = -1.0f; /* the current distance */
        sticks[i].compliance = 0.0f;   /* rigid */
    }
    if (check(sinew_body_add_distance_constraints(world, rope, sticks, N - 1), "sticks")) return 1;
    if (check(sinew_body_set_particle_radius(world, rope, 0.02f), "radius")) return 1;

    /* A ball under the swinging rope. */
    SinewVec3 center = {0.6f, -0.9f, 0.0f};
    SinewColliderId ball;
    if (check(sinew_collider_create_sphere(world, center, 0.4f, 0.5f, &ball), "sphere")) return 1;

    SinewVec3 now[N];
    uint32_t count = 0;
    for (int frame = 1; frame <= 6 * 60; ++frame) {
        if (check(sinew_world_step(world, 1.0f / 60.0f), "step")) return 1;
        if (frame % 60 == 0) {
            if (check(sinew_body_read_positions(world, rope, now, N, &count), "read")) return 1;
            SinewVec3 end = now[N - 1];
            printf("t = %d s  end = (%+.3f, %+.3f, %+.3f)\n", frame / 60, end.x, end.y, end.z);
        }
    }

    /* The rope must be finite, outside the ball, (nearly) unstretched, lying on
     * the ball with several particles, and its end must hang right of it. */
    int bad = 0, touching = 0;
    for (uint32_t i = 0; i < count; ++i) {
        float dx = now[i].x - center.x, dy = now[i].y - center.y, dz = now[i].z - center.z;
        float d = sqrtf(dx * dx + dy * dy + dz * dz);
        if (!isfinite(d) || d < 0.4f + 0.02f - 0.01f) bad = 1;
        if (d < 0.4f + 0.02f + 0.01f) ++touching;
        if (i > 0) {
            float sx = now[i].x - now[i - 1].x, sy = now[i].y - now[i - 1].y, sz = now[i].z - now[i - 1].z;
            /* sticks within 0.2 mm of 10 cm (measured 3.7e-5 m; the bound was 5 mm) */
            if (fabsf(sqrtf(sx * sx + sy * sy + sz * sz) - 0.1f) > 2e-4f) bad = 1;
        }
    }
    if (touching < 3 || now[N - 1].x < center.x || now[N - 1].y > center.y) bad = 1;
    sinew_world_destroy(world);
    if (bad) {
        fprintf(stderr, "the rope is not draped over the ball (%d particles touch it)\n", touching);
        return 1;
    }
    printf("ok: the rope hangs draped over the ball (%d particles touch it)\n", touching);
    return 0;
}
