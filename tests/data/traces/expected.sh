#!/bin/sh
# tests/data/traces/expected.sh - writes NAME.batch.NN.cmds (one "dword-offset
# COMMAND" line per command) for each batch, from Mesa aubinator's decode of the
# same trace (../shared/traces/intel/*/NAME.aubinator.txt), independently of
# gtsim's decoder.  Batches are taken in the order NAME.batches.txt lists them;
# a decoded command belongs to the current batch when its address lies inside
# it, and the batch ends at its MI_BATCH_BUFFER_END.  NAME.batch.NN.fields
# holds, per command ("@offset NAME"), every "Field: value" line aubinator
# printed for it (embedded structures' fields included, "<struct>" lines not).
# Usage: cd tests/data/traces && ./expected.sh ../../../../shared/traces/intel
set -e
src=${1:-../../../../shared/traces/intel}
for b in *.batches.txt; do
    name=${b%.batches.txt}
    aub=$(ls "$src"/*/"$name".aubinator.txt)
    grep -E '^  batch [0-9]+ @ ' "$b" | awk '{print $2, $4, $5, $8}' > /tmp/expected.$$
    awk -v list=/tmp/expected.$$ '
        function hex(s,   i, c, v) { v = 0; s = tolower(substr(s, 3));
            for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
            return v }
        BEGIN { n = 0
            while ((getline line < list) > 0) { split(line, f, " "); num[n] = f[1]; sub(/:$/, "", f[2]); base[n] = hex(f[2]);
                size[n] = f[3] * 4; file[n] = f[4]; n++ }
            cur = 0 }
        /^0x[0-9a-f]+:  0x[0-9a-f]+:  [A-Z0-9_]+/ {
            if (cur >= n) next
            a = hex(substr($1, 1, length($1) - 1))
            if (a < base[cur] || a >= base[cur] + size[cur]) next
            out = file[cur]; sub(/\.bin$/, ".cmds", out)
            fout = file[cur]; sub(/\.bin$/, ".fields", fout)
            off = (a - base[cur]) / 4
            printf "%d %s\n", off, $3 > out
            printf "@%d %s\n", off, $3 > fout
            infield = 1
            if ($3 == "MI_BATCH_BUFFER_END") { close(out); close(fout); cur++; infield = 0 }
            next
        }
        /^0x[0-9a-f]+:  0x[0-9a-f]+:  [^:]/ { infield = 0; next }
        /^0x/ { next }
        /^    [^ ]/ { if (infield && $0 !~ /<struct /) print substr($0, 5) > fout; next }
        { infield = 0 }' "$aub"
    rm -f /tmp/expected.$$
done
gzip -9nf ./*.fields
