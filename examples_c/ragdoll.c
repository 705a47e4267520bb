/* ragdoll.c: a limp humanoid pushed off the top of a flight of box stairs
 * tumbles down them. Prints its pelvis height once per simulated second and
 * checks that it went down the stairs without falling through them.
 *
 * Build (from the repository root, after `cargo build --release`):
 *   cc -std=c99 -Iinclude examples_c/ragdoll.c -Ltarget/release -lsinew \
 *      -Wl,-rpath,$PWD/target/release -lm -o ragdoll && ./ragdoll
 */
#include <math.h>
#include <stdio.h>
#include "sinew.h"

#define STEPS 8
#define RISE 0.2f  /* metres up per step */
#define DEPTH 0.3f /* metres along +Z per step */

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

/* The top of the stairs under z (the ground beyond the last step). */
static float floor_at(float z) {
    int k = (int)floorf(z / DEPTH);
    if (k < 0) k = 0;
    if (k >= STEPS) return 0.0f;
    return RISE * (float)(STEPS - k);
}

int main(void) {
    SinewWorldDef def = sinew_default_world_def();
    SinewWorld* world = NULL;
    if (check(sinew_world_create(&def, &world), "sinew_world_create")) return 1;

    /* The ground, and the stairs going down along +Z: step k is a box from
     * the ground up to its tread, (STEPS - k) * RISE high. */
    SinewVec3 up = {0.0f, 1.0f, 0.0f};
    SinewColliderId ground;
    if (check(sinew_collider_create_plane(world, up, 0.0f, 0.6f, &ground), "plane")) return 1;
    for (int k = 0; k < STEPS; ++k) {
        float top = RISE * (float)(STEPS - k);
        SinewTransform at = {{0.0f, 0.5f * top, DEPTH * ((float)k + 0.5f)}, {0.0f, 0.0f, 0.0f, 1.0f}};
        SinewVec3 half = {1.5f, 0.5f * top, 0.5f * DEPTH};
        SinewColliderId step;
        if (check(sinew_collider_create_box(world, at, half, 0.6f, &step), "step")) return 1;
    }

    /* A 1.8 m figure standing on the top tread, facing down the stairs (+Z),
     * given a shove in the back. */
    SinewTransform at = {{0.0f, RISE * STEPS, 0.5f * DEPTH}, {0.0f, 0.0f, 0.0f, 1.0f}};
    SinewBodyId doll;
    if (check(sinew_ragdoll_create_humanoid(world, at, 1.8f, &doll), "humanoid")) return 1;
    uint32_t chest = 0;
    if (check(sinew_ragdoll_find_bone(world, doll, "chest", &chest), "find chest")) return 1;
    SinewTransform bones[17];
    uint32_t count = 0;
    if (check(sinew_ragdoll_read_bones(world, doll, bones, 17, &count), "read")) return 1;
    SinewVec3 shove = {0.0f, 0.0f, 60.0f}; /* N s, forward */
    if (check(sinew_ragdoll_apply_impulse(world, doll, chest, bones[chest].position, shove), "impulse")) return 1;

    float start = bones[0].position.y;
    float lowest_clearance = 1e9f;
    for (int frame = 1; frame <= 8 * 60; ++frame) {
        if (check(sinew_world_step(world, 1.0f / 60.0f), "step")) return 1;
        if (check(sinew_ragdoll_read_bones(world, doll, bones, 17, &count), "read")) return 1;
        for (uint32_t b = 0; b < count; ++b) {
            SinewVec3 p = bones[b].position;
            float clearance = p.y - floor_at(p.z);
            if (fabsf(p.x) < 1.5f && clearance < lowest_clearance) lowest_clearance = clearance;
        }
        if (frame % 60 == 0) {
            SinewVec3 pelvis = bones[0].position;
            printf("t = %d s: pelvis at height %.2f m, %.2f m down the stairs\n", frame / 60, pelvis.y, pelvis.z);
        }
    }
    SinewVec3 pelvis = bones[0].position;
    sinew_world_destroy(world);

    /* Down the stairs by at least three steps, and no joint ever more than
     * 3 cm inside a tread (the thinnest bones are 3.5 cm thick). */
    if (pelvis.y > start - 3.0f * RISE || pelvis.z < 3.0f * DEPTH) {
        fprintf(stderr, "the figure did not go down the stairs (pelvis at %.2f, %.2f)\n", pelvis.y, pelvis.z);
        return 1;
    }
    if (lowest_clearance < -0.03f) {
        fprintf(stderr, "a joint went %.3f m into the stairs\n", -lowest_clearance);
        return 1;
    }
    printf("ok: the figure tumbled down the stairs (lowest joint clearance %.3f m)\n", lowest_clearance);
    return 0;
}
