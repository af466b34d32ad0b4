#!/usr/bin/env bash
# Fuzzes the decoders of outside data with libFuzzer for a bounded time: the provider answer
# (ProviderAnswerDecoder.answer(to:from:)), the control message (VarlinkRequest.parse plus every method's
# parameter decoding) and the image header (ImageHeader.read, the files a provider writes for its entries).
#
#   scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]
#       (default: 60 s each; targets: provider-answer control-message image-header)
#
# WidgetProtocol is compiled with swiftc -sanitize=fuzzer,address (coverage-guided, memory-checked); the modules
# below it (WidgetSchedulerCore, swift-collections' HeapModule) come from an ordinary `swift build` and are linked
# uninstrumented. Corpora live in fuzz/corpus/<target> (seeds are committed; what libFuzzer adds stays in the build
# directory). A crash stops the script with status 1 and leaves the input in $BUILD/crashes/<target>/: add it to
# Tests/WidgetProtocolTests/FuzzRegressionTests.swift.
#
# Environment: FUZZ_BUILD_DIR (default .build-fuzz), SWIFT (default swift), SWIFTC (default swiftc).
set -euo pipefail

seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-provider-answer control-message image-header}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/.build-fuzz}
swift=${SWIFT:-swift}
swiftc=${SWIFTC:-swiftc}
case $build in /*) ;; *) build=$root/$build ;; esac

echo "fuzz: building WidgetSchedulerCore (uninstrumented) in $build" >&2
"$swift" build --package-path "$root" --scratch-path "$build" --target WidgetSchedulerCore >&2
debug=$build/debug
modules=$debug/Modules
[ -d "$modules" ] || modules=$debug
out=$build/fuzz
mkdir -p "$out"

echo "fuzz: compiling WidgetProtocol with -sanitize=fuzzer,address" >&2
# shellcheck disable=SC2046
"$swiftc" -parse-as-library -module-name WidgetProtocol -wmo -sanitize=fuzzer,address \
    -I "$modules" -emit-module -emit-module-path "$out/WidgetProtocol.swiftmodule" \
    -c -o "$out/WidgetProtocol.o" $(find "$root/Sources/WidgetProtocol" -name '*.swift' | sort)

# Object names may hold spaces ("Integer rank.swift.o").
mapfile -d '' objects < <(find "$debug/WidgetSchedulerCore.build" "$debug/HeapModule.build" \
    "$debug/InternalCollectionsUtilities.build" -name '*.o' -print0 2>/dev/null | sort -z)

status=0
for target in $targets; do
    case $target in
        provider-answer) source=$root/fuzz/ProviderAnswer/ProviderAnswerFuzzer.swift ;;
        control-message) source=$root/fuzz/ControlMessage/ControlMessageFuzzer.swift ;;
        image-header) source=$root/fuzz/ImageHeader/ImageHeaderFuzzer.swift ;;
        *) echo "fuzz: unknown target $target (known: provider-answer control-message image-header)" >&2; exit 2 ;;
    esac
    echo "fuzz: linking $target" >&2
    "$swiftc" -parse-as-library -module-name "FuzzTarget" -sanitize=fuzzer,address -I "$out" -I "$modules" \
        "$source" "$out/WidgetProtocol.o" "${objects[@]}" -o "$out/$target" 2>"$out/$target.link.log" || {
        cat "$out/$target.link.log" >&2
        exit 1
    }
    corpus=$build/corpus/$target
    crashes=$build/crashes/$target
    mkdir -p "$corpus" "$crashes"
    cp "$root/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
    echo "fuzz: running $target for $seconds s" >&2
    if "$out/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$out/$target.log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$target.log")
        coverage=$(grep -o 'cov: [0-9]*' "$out/$target.log" | tail -1)
        echo "fuzz: $target: no crash in $seconds s, $runs inputs, $coverage, corpus $(ls "$corpus" | wc -l)"
    else
        status=1
        echo "fuzz: $target: CRASH; input(s) in $crashes:" >&2
        ls "$crashes" >&2
        grep -A 30 'ERROR\|Fatal error\|deadly signal' "$out/$target.log" | head -60 >&2
    fi
done
exit $status
