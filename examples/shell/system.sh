#!/bin/sh
# System load, memory and uptime: a POSIX sh widget provider (protocol v1).
# It runs one `date` and otherwise only shell builtins, so it answers in a few milliseconds.
set -u

# The request is one line of JSON; read it with the builtin (no `cat`).
request=''
while IFS= read -r line || [ -n "$line" ]; do request="$request$line"; done

# rfc3339 EPOCH: prints EPOCH as an RFC 3339 UTC date, with shell arithmetic only (civil-from-days).
rfc3339() {
    s=$1
    d=$((s / 86400)); r=$((s % 86400))
    z=$((d + 719468)); era=$((z / 146097)); doe=$((z - era * 146097))
    yoe=$(((doe - doe / 1460 + doe / 36524 - doe / 146096) / 365))
    doy=$((doe - (365 * yoe + yoe / 4 - yoe / 100))); mp=$(((5 * doy + 2) / 153))
    day=$((doy - (153 * mp + 2) / 5 + 1))
    if [ "$mp" -lt 10 ]; then month=$((mp + 3)); else month=$((mp - 9)); fi
    year=$((yoe + era * 400)); [ "$month" -le 2 ] && year=$((year + 1))
    printf '%04d-%02d-%02dT%02d:%02d:%02dZ' "$year" "$month" "$day" $((r / 3600)) $((r % 3600 / 60)) $((r % 60))
}

now=$(date -u +%s)
uptime_seconds=null
load1=null; load5=null; load15=null
if [ -r /proc/uptime ]; then read -r uptime_seconds _ < /proc/uptime; fi
if [ -r /proc/loadavg ]; then read -r load1 load5 load15 _ < /proc/loadavg; fi
# Processors (the load gauge's maximum) and the share of memory in use, from /proc with the builtin read.
cpus=null
if [ -r /proc/cpuinfo ]; then
    count=0
    while IFS= read -r line; do case $line in processor*) count=$((count + 1)) ;; esac; done < /proc/cpuinfo
    [ "$count" -gt 0 ] && cpus=$count
fi
memory_used=null
if [ -r /proc/meminfo ]; then
    total=0; available=0
    while read -r name value _; do
        case $name in MemTotal:) total=$value ;; MemAvailable:) available=$value ;; esac
    done < /proc/meminfo
    if [ "$total" -gt 0 ]; then
        permille=$(((total - available) * 1000 / total))
        memory_used=$(printf '%d.%03d' $((permille / 1000)) $((permille % 1000)))
    fi
fi

entry() {
    printf '{"date":"%s","content":{"uptime":%s,"load1":%s,"load5":%s,"load15":%s,"cpus":%s,"memoryUsed":%s}}' \
        "$(rfc3339 "$now")" "$uptime_seconds" "$load1" "$load5" "$load15" "$cpus" "$memory_used"
}

case $request in
    *'"request":"timeline"'* | *'"request": "timeline"'*)
        printf '{"entries":[%s],"policy":{"after":"%s"}}\n' "$(entry)" "$(rfc3339 $((now + 900)))" ;;
    *'"request":"snapshot"'* | *'"request": "snapshot"'* | *'"request":"placeholder"'* | *'"request": "placeholder"'*)
        printf '{"entry":%s}\n' "$(entry)" ;;
    *'"request":"defaults"'* | *'"request": "defaults"'*)
        printf '{"configuration":{}}\n' ;;
    *'"request":"options"'* | *'"request": "options"'*)
        printf '{"options":[]}\n' ;;
    *)
        echo "system.sh: not a protocol 1 request I know" >&2
        exit 2 ;;
esac
