#!/bin/sh
# Per-scene physics and rendering time per frame of the samples app, headless,
# as a Markdown table. Run it under Xvfb from the repository root:
#
#   xvfb-run -a -s "-screen 0 1280x720x24" examples_cpp/samples/timings.sh [path/to/sinew_samples]
#
# Physics: FRAMES (default 300) frames rendering only the last (so the
# software renderer does not share the cores with the steps): the mean wall
# time of a step, its mean CPU time on the stepping thread (what other
# processes on the cores do not inflate), and the slowest step. Rendering:
# 30 frames at 960x540, each drawn, the mean per frame. Extra arguments for
# the app go in APP_ARGS (e.g. APP_ARGS="--workers 1"; not ARGS, which
# xvfb-run sets for itself).
set -eu
app=${1:-./build/samples/sinew_samples}
frames=${FRAMES:-300}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
echo "| scene | physics ms/frame | physics CPU ms/frame | slowest step ms | render ms/frame | particles | constraints | recoveries |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for scene in $("$app" --list | awk '{print $1}'); do
    # shellcheck disable=SC2086
    p=$("$app" --scene "$scene" --frames "$frames" --render-last --screenshot "$out/p.png" \
        --width 320 --height 180 ${APP_ARGS:-} | grep "^scene=")
    # shellcheck disable=SC2086
    r=$("$app" --scene "$scene" --frames 30 --screenshot "$out/r.png" --width 960 --height 540 ${APP_ARGS:-} |
        grep "^scene=")
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$scene" "$(field "$p" physics_ms)" \
        "$(field "$p" physics_cpu_ms)" "$(field "$p" physics_worst_ms)" "$(field "$r" render_ms)" \
        "$(field "$p" particles)" "$(field "$p" constraints)" "$(field "$p" recoveries)"
done
