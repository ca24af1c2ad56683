#!/bin/sh
# push.sh URL: push the corpus's Go and Node pprof profiles into the Parca
# at URL (e.g. http://127.0.0.1:17070) through its JSON gateway's WriteRaw
# (POST /api/profiles/writeraw), one series per file with labels saying the
# job, the build and the instance. See README.md.
set -eu
url=${1:?usage: push.sh PARCA_URL}
corpus=${CORPUS:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpus}
push() { # name job build instance file
	b64=$(base64 -w0 "$5")
	jq -n --arg n "$1" --arg j "$2" --arg b "$3" --arg i "$4" --arg p "$b64" \
		'{normalized: true, series: [{labels: {labels: [{name: "__name__", value: $n}, {name: "job", value: $j}, {name: "build", value: $b}, {name: "instance", value: $i}]}, samples: [{rawProfile: $p}]}]}' |
		curl -fsS -X POST -H 'Content-Type: application/json' --data-binary @- "$url/api/profiles/writeraw" >/dev/null
	echo "pushed $5 as $1{job=$2,build=$3,instance=$4}"
}
for build in before after; do
	for r in 1 2 3; do
		push process_cpu gobench $build r$r "$corpus/go-pprof/$build-r$r.pprof"
	done
	push node_wall router $build a "$corpus/node-pprof/$build.pb.gz"
	push node_wall router $build b "$corpus/node-pprof/$build-lines.pb.gz"
done
