#!/bin/sh
# tests/data/traces/structs.sh - writes TRACE.structs.gz: every state structure
# and register Mesa's aubinator dumped in ../shared/traces/intel/*/TRACE.aubinator.txt
# (viewports, COLOR_CALC_STATE, BLEND_STATE, DEPTH_STENCIL_STATE, SCISSOR_RECT,
# SAMPLER_STATE, RENDER_SURFACE_STATE, INTERFACE_DESCRIPTOR_DATA, registers
# written by MI_LOAD_REGISTER_IMM): one "@NAME" line, its raw dwords as
# "=index 0xvalue" lines, then every "Field: value" line aubinator printed.
# Independent of gtsim's decoder.
# Usage: cd tests/data/traces && ./structs.sh ../../../../shared/traces/intel
set -e
src=${1:-../../../../shared/traces/intel}
for aub in "$src"/*/*.aubinator.txt; do
    name=$(basename "$aub" .aubinator.txt)
    awk '
        /^(CC_VIEWPORT|SF_CLIP_VIEWPORT|SF_VIEWPORT|CLIP_VIEWPORT|COLOR_CALC_STATE|BLEND_STATE|BLEND_STATE_ENTRY|SCISSOR_RECT|DEPTH_STENCIL_STATE)( [0-9]+)?[ ]*$/ {
            print "@" $1; on = 1; next }
        /^sampler state [0-9]+/ { print "@SAMPLER_STATE"; on = 1; next }
        /^pointer [0-9]+: 0x/ { print "@RENDER_SURFACE_STATE"; on = 1; next }
        /^descriptor [0-9]+: / { print "@INTERFACE_DESCRIPTOR_DATA"; on = 1; next }
        /^register [A-Z0-9_]+ \(/ { print "@" $2; on = 1; next }
        on && /^0x[0-9a-f]+:  0x[0-9a-f]+ : Dword [0-9]+/ { print "=" $5, $2; next }
        on && /^    [^ ]/ { print substr($0, 5); next }
        { on = 0 }' "$aub" | gzip -9n > "$name.structs.gz"
done
