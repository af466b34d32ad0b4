#!/bin/sh
# The smallest valid provider: reads the request, answers a timeline with one entry dated now. Benchmarks use it.
# Only `date` runs besides the shell; anything but a timeline request is refused.
request=''
while IFS= read -r line || [ -n "$line" ]; do request="$request$line"; done
case $request in
    *'"request":"timeline"'* | *'"request": "timeline"'*) ;;
    *) echo "trivial.sh: only timeline requests are served" >&2; exit 2 ;;
esac
printf '{"entries":[{"date":"%s","content":{"text":"hello"}}],"policy":"atEnd"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
