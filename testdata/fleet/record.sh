#!/bin/sh
# record.sh URL: record the Parca JSON-gateway answers the fleet tests
# replay, from a Parca at URL that push.sh has filled. See README.md.
set -eu
url=${1:?usage: record.sh PARCA_URL}
dir=$(cd "$(dirname "$0")" && pwd)/parca
mkdir -p "$dir"
start=2026-12-02T09:40:00Z end=2026-12-02T09:55:00Z
query() { # out selector
	curl -fsS -G "$url/api/profiles/query" --data-urlencode mode=MODE_MERGE \
		--data-urlencode reportType=REPORT_TYPE_PPROF --data-urlencode "merge.query=$2" \
		--data-urlencode "merge.start=$start" --data-urlencode "merge.end=$end" -o "$dir/$1"
	echo "recorded $1"
}
go=process_cpu:cpu:nanoseconds:cpu:nanoseconds:delta
for b in before after; do
	query "query-go-$b.json" "$go{job=\"gobench\",build=\"$b\"}"
	for r in r1 r2 r3; do
		query "query-go-$b-instance-$r.json" "$go{job=\"gobench\",build=\"$b\",instance=\"$r\"}"
	done
done
curl -fsS -G "$url/api/profiles/labels/instance/values" --data-urlencode "match=$go{job=\"gobench\",build=\"before\"}" \
	--data-urlencode "start=$start" --data-urlencode "end=$end" -o "$dir/values-instance.json"
echo recorded values-instance.json
query query-empty.json "$go{job=\"nosuchjob\"}"
