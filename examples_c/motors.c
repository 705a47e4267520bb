/* motors.c: a humanoid holds a standing pose with its motors, is hit in the
 * chest, and its motors pull it back onto the pose while physics keeps the
 * last word. Prints the RMS distance of the bones' heads from the pose over
 * time and checks that it recovered (measured: held within 0.4 cm, pushed
 * 7.8 cm off, back within 2 cm after 0.25 s).
 *
 * Each frame a game would give the animation's pose here; this one holds the
 * rest pose the figure was created in.
 *
 * Build (from the repository root, after `cargo build --release`):
 *   cc -std=c99 -Iinclude examples_c/motors.c -Ltarget/release -lsinew \
 *      -Wl,-rpath,$PWD/target/release -lm -o motors && ./motors
 */
#include <math.h>
#include <stdio.h>
#include "sinew.h"

#define FPS 60

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

/* RMS distance (metres) of the bones' heads from the pose's. */
static float rms(const SinewTransform* bones, const SinewTransform* pose, uint32_t count) {
    float sum = 0.0f;
    for (uint32_t b = 0; b < count; ++b) {
        float dx = bones[b].position.x - pose[b].position.x;
        float dy = bones[b].position.y - pose[b].position.y;
        float dz = bones[b].position.z - pose[b].position.z;
        sum += dx * dx + dy * dy + dz * dz;
    }
    return sqrtf(sum / (float)count);
}

int main(void) {
    SinewWorldDef def = sinew_default_world_def();
    SinewWorld* world = NULL;
    if (check(sinew_world_create(&def, &world), "sinew_world_create")) return 1;
    SinewVec3 up = {0.0f, 1.0f, 0.0f};
    SinewColliderId ground;
    if (check(sinew_collider_create_plane(world, up, 0.0f, 0.8f, &ground), "plane")) return 1;

    /* A 1.8 m figure standing on the ground; its rest pose is the target. */
    SinewTransform at = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    SinewBodyId doll;
    if (check(sinew_ragdoll_create_humanoid(world, at, 1.8f, &doll), "humanoid")) return 1;
    SinewTransform pose[17], bones[17];
    uint32_t count = 0;
    if (check(sinew_ragdoll_read_bones(world, doll, pose, 17, &count), "read pose")) return 1;
    uint32_t chest = 0;
    if (check(sinew_ragdoll_find_bone(world, doll, "chest", &chest), "find chest")) return 1;

    /* Firm but not rigid: the fraction 0.3 of the error removed per 1/60 s,
     * at most 1000 N on the root and 1000 N at each bone's tail. */
    if (check(sinew_ragdoll_set_motor_strength(world, doll, 0.3f, 1000.0f), "strength")) return 1;
    /* The figure's place is animated too (root motion, off by default): it
     * stands on its motors alone. */
    if (check(sinew_ragdoll_set_motor_root_motion(world, doll, 1), "root motion")) return 1;

    float worst = 0.0f, before_hit = 0.0f, recovered_at = -1.0f, last = 0.0f;
    const int hit_frame = FPS; /* hit after a second */
    for (int frame = 1; frame <= 3 * FPS; ++frame) {
        /* The animation's pose for this frame (here always the rest pose). */
        if (check(sinew_ragdoll_set_motor_targets(world, doll, pose, count), "targets")) return 1;
        if (frame == hit_frame) {
            if (check(sinew_ragdoll_read_bones(world, doll, bones, 17, &count), "read")) return 1;
            SinewVec3 blow = {0.0f, 0.0f, -80.0f}; /* N s, in the chest from the front */
            if (check(sinew_ragdoll_apply_impulse(world, doll, chest, bones[chest].position, blow), "hit")) return 1;
            printf("t = %.2f s: hit in the chest, 80 N s\n", (float)frame / FPS);
        }
        if (check(sinew_world_step(world, 1.0f / FPS), "step")) return 1;
        if (check(sinew_ragdoll_read_bones(world, doll, bones, 17, &count), "read")) return 1;
        float e = rms(bones, pose, count);
        if (frame < hit_frame && e > before_hit) before_hit = e;
        if (frame >= hit_frame) {
            if (e > worst) worst = e;
            if (recovered_at < 0.0f && worst > 0.03f && e < 0.02f) recovered_at = (float)(frame - hit_frame) / FPS;
        }
        if (frame % 6 == 0 && frame >= hit_frame - 6 && frame <= hit_frame + 60) {
            printf("t = %.2f s: %5.1f cm RMS off the pose\n", (float)frame / FPS, 100.0f * e);
        }
        last = e;
    }
    printf("held within %.1f cm before the hit; pushed %.1f cm off; back within 2 cm after %.2f s; %.1f cm at the end\n",
           100.0f * before_hit, 100.0f * worst, recovered_at, 100.0f * last);
    sinew_world_destroy(world);
    if (before_hit > 0.02f || worst < 0.03f || recovered_at < 0.0f || recovered_at > 1.0f || last > 0.01f) {
        fprintf(stderr, "FAILED: the motors did not hold, feel or recover from the hit\n");
        return 1;
    }
    printf("ok: the figure held its pose, took the hit and recovered\n");
    return 0;
}
