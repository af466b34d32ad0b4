#!/bin/sh
# The conformance test's provider: answers every request kind with the smallest valid answer, so each method of the
# control interface has something real behind it. Only `date` runs besides the shell.
request=''
while IFS= read -r line || [ -n "$line" ]; do request="$request$line"; done
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
case $request in
    *'"request":"timeline"'*)
        printf '{"entries":[{"date":"%s","relevance":{"score":1},"content":{"text":"hello"}}],"policy":"never"}\n' "$now" ;;
    *'"request":"snapshot"'* | *'"request":"placeholder"'*)
        printf '{"entry":{"date":"%s","content":{"text":"preview"}}}\n' "$now" ;;
    *'"request":"defaults"'*) printf '{"configuration":{}}\n' ;;
    *'"request":"options"'*) printf '{"options":[{"value":"paris","title":"Paris"},{"value":"oslo","title":"Oslo"}]}\n' ;;
    *) echo "conformance-provider.sh: unknown request" >&2; exit 2 ;;
esac
