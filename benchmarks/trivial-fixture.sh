# Sourced by suite.sh and p1-cpu.sh, from the repository's root with $repo, $work and $SCHED set: the C loop built
# into $work, the trivial provider ($provider) with its manifest in $work/providers, a developer-mode configuration
# ($work/developer.toml: no floor, no budget, 2 runs at a time), the request the C loop sends ($work/request.json),
# and $prio, the prefix that runs a command under SCHED_FIFO when SCHED=fifo and chrt may.
cc -O2 -pthread -o "$work/spawn-loop" benchmarks/spawn-loop.c
provider=$repo/examples/trivial/trivial.sh
mkdir -p "$work/providers"
sed "s#^exec = .*#exec = \"$provider\"#" examples/trivial/trivial.toml > "$work/providers/trivial.toml"
printf 'developer-kinds = ["trivial"]\nmax-concurrent-runs = 2\n' > "$work/developer.toml"
cat > "$work/request.json" <<'REQUEST'
{"context":{"isPreview":false,"now":"2026-01-05T08:00:00Z","reason":"policy"},"kind":"trivial","protocol":1,"request":"timeline","widget":{"configuration":{},"family":"systemSmall","id":"w1"}}
REQUEST
prio=
if [ "$SCHED" = fifo ] && command -v chrt > /dev/null && chrt -f 1 true 2> /dev/null; then prio="chrt -f 1"; fi
