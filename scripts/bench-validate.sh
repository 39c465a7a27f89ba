#!/usr/bin/env bash
# Whole-process benchmark of `promptset validate` and `promptset report --format csv`.
#
# Builds the release binary, makes the corpora with scripts/bench-corpus.py (1,000
# documents of about 35 KB, one 100,000-prompt document of about 64 MB), checks that
# every document validates, then times with hyperfine (median of RUNS) and measures
# peak RSS with /usr/bin/time. Peers are optional: set PEERS=1 to time jsonschema-cli
# (`cargo install jsonschema-cli`) with the committed schema in the same run.
#
# Usage: scripts/bench-validate.sh    (settings are environment variables)
#   WORK=DIR        scratch folder (default: new mktemp -d, kept and printed; reused if seeded)
#   COUNT=1000 LARGE_PROMPTS=100000 RUNS=5 SKIP_BUILD=1 PEERS=1
set -euo pipefail

COUNT=${COUNT:-1000}
LARGE_PROMPTS=${LARGE_PROMPTS:-100000}
RUNS=${RUNS:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d -t validate-bench.XXXXXX)}
command -v hyperfine >/dev/null || { echo "hyperfine is missing (apt-get install hyperfine)" >&2; exit 2; }
echo "# WORK=$WORK"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  (cd "$ROOT" && cargo build --release -q -p promptset)
fi
PS="$ROOT/target/release/promptset"
SCHEMA="$ROOT/schemas/promptset.schema.json"

if [ ! -f "$WORK/corpus-$COUNT-$LARGE_PROMPTS" ]; then
  python3 "$ROOT/scripts/bench-corpus.py" "$WORK" --count "$COUNT" --large-prompts "$LARGE_PROMPTS"
  touch "$WORK/corpus-$COUNT-$LARGE_PROMPTS"
fi
DOCS=("$WORK"/docs/ps-*.json)
LARGE="$WORK/large/large.json"
DOCS_BYTES=$(cat "${DOCS[@]}" | wc -c)
LARGE_BYTES=$(wc -c < "$LARGE")
echo "# corpus: ${#DOCS[@]} docs, $DOCS_BYTES bytes; large.json $LARGE_BYTES bytes"
"$PS" validate -q "${DOCS[@]}" "$LARGE" || { echo "corpus does not validate" >&2; exit 1; }

rss_mb() { # command... -> peak RSS in MB
  /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.0f", $1 / 1024}'
}
row() { # task seconds bytes rss
  python3 -c "import sys; t,s,b,r=sys.argv[1:]; s=float(s); print(f'{t:<32} {s:9.4f} s {int(b)/s/1e6:9.1f} MB/s {r:>6} MB')" "$@"
}
median() { # hyperfine json -> median seconds
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['median'])" "$1"
}
time_it() { # name command
  hyperfine -N -w 1 -r "$RUNS" --export-json "$WORK/$1.json" "$2" >/dev/null 2>&1 \
    || hyperfine -w 1 -r "$RUNS" --export-json "$WORK/$1.json" "$2" >/dev/null
  median "$WORK/$1.json"
}

echo
printf '%-32s %11s %14s %9s\n' task median throughput peak_rss
row "validate ${#DOCS[@]} docs" "$(time_it docs "$PS validate -q $WORK/docs")" "$DOCS_BYTES" \
  "$(rss_mb "$PS" validate -q "$WORK/docs")"
row "validate large" "$(time_it large "$PS validate -q $LARGE")" "$LARGE_BYTES" \
  "$(rss_mb "$PS" validate -q "$LARGE")"
row "report csv large" "$(time_it csv "$PS report $LARGE -o $WORK/large.csv")" "$LARGE_BYTES" \
  "$(rss_mb "$PS" report "$LARGE" -o "$WORK/large.csv")"
if [ "${PEERS:-0}" = 1 ]; then
  command -v jsonschema-cli >/dev/null || { echo "jsonschema-cli missing (cargo install jsonschema-cli)" >&2; exit 2; }
  INSTANCES=$(printf -- ' -i %s' "${DOCS[@]}")
  row "jsonschema-cli ${#DOCS[@]} docs" \
    "$(time_it peer-docs "jsonschema-cli validate $SCHEMA$INSTANCES")" "$DOCS_BYTES" \
    "$(rss_mb bash -c "jsonschema-cli validate $SCHEMA$INSTANCES")"
  row "jsonschema-cli large" "$(time_it peer-large "jsonschema-cli validate $SCHEMA -i $LARGE")" \
    "$LARGE_BYTES" "$(rss_mb jsonschema-cli validate "$SCHEMA" -i "$LARGE")"
fi
