/* flag.c: a flag on a pole, flying in the wind.
 *
 * A cloth grid turned so that its pinned top row runs up the pole (+Y) and
 * its rows stretch away from it (+X); the world's wind blows along +X with a
 * little sideways gust. Prints where the flag's free top corner (its "tip")
 * is every half second, then checks that the wind holds the flag out. */
#include <math.h>
#include <stdio.h>
#include "sinew.h"

static int check(SinewResult r, const char* what) {
    if (r == SINEW_RESULT_OK) return 0;
    char message[256];
    sinew_last_error_message(message, sizeof message);
    fprintf(stderr, "%s failed: %s (%s)\n", what, sinew_result_name(r), message);
    return 1;
}

int main(void) {
    SinewWorldDef def = sinew_default_world_def();
    def.wind = (SinewVec3){8.0f, 0.0f, 1.0f}; /* m/s */
    SinewWorld* world = NULL;
    if (check(sinew_world_create(&def, &world), "create world")) return 1;

    /* The flag: 16 vertices up the pole, 24 along the fly, 5 cm apart. The
     * grid's frame is turned 90 degrees about Z: local +X (the pinned top
     * row) points up, local -Y (the rows) points along +X. */
    SinewClothGridDef flag = sinew_default_cloth_grid_def();
    const float s = 0.70710678f;
    flag.transform.position = (SinewVec3){0.0f, 2.0f, 0.0f}; /* bottom of the hoist */
    flag.transform.rotation = (SinewQuat){0.0f, 0.0f, s, s};
    flag.columns = 16;
    flag.rows = 24;
    flag.spacing = 0.05f;
    flag.mass = 0.15f; /* kg: light polyester */
    flag.pin_flags = SINEW_PIN_TOP_EDGE;
    SinewBodyId body;
    if (check(sinew_cloth_create_grid(world, &flag, &body), "create flag")) return 1;

    const uint32_t tip = 24 * 16 - 1; /* last row, top column */
    const float length = 23 * 0.05f;
    SinewVec3 p[24 * 16];
    uint32_t count = 0;
    for (int frame = 1; frame <= 240; ++frame) {
        if (check(sinew_world_step(world, 1.0f / 60.0f), "step")) return 1;
        if (frame % 30 == 0) {
            if (check(sinew_body_read_positions(world, body, p, 24 * 16, &count), "read")) return 1;
            printf("t = %.1f s  tip = (%+.3f, %+.3f, %+.3f)\n", frame / 60.0f, p[tip].x, p[tip].y, p[tip].z);
        }
    }
    SinewVec3 lo, hi;
    if (check(sinew_body_get_bounds(world, body, &lo, &hi), "bounds")) return 1;
    sinew_world_destroy(world);

    /* Flying: the tip is out along the wind, most of the flag's length from
     * the pole, and nothing is NaN. */
    int ok = isfinite(p[tip].x) && p[tip].x > 0.7f * length && hi.x > 0.8f * length && hi.x < 1.01f * length + 0.02f;
    if (!ok) {
        fprintf(stderr, "the flag does not fly: tip x = %.3f, bounds x up to %.3f\n", p[tip].x, hi.x);
        return 1;
    }
    printf("ok: the flag flies, its tip %.2f m downwind of the pole\n", p[tip].x);
    return 0;
}
