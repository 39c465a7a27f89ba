#!/usr/bin/env bash
# Publishes the npm benchmark packages (folders with a package.json, as the side-by-side
# registry benchmark writes them for Verdaccio) to our registry through its own publish
# API, so the packument and tarball routes serve comparable bytes.
#
# Usage: scripts/bench-npm-seed.sh PKGS_DIR
#   OURS_BASE   registry base URL (default http://127.0.0.1:18432)
#   OURS_TOKEN  API token of the publishing user (or OURS_TOKEN_FILE, a file holding it)
#
# Our registry publishes OpenClaw packages, so each folder is copied, given the manifest
# a code plugin needs (`openclaw.plugin.json`, the `openclaw` block in package.json, both
# a few hundred bytes), packed with `npm pack` and sent as the `clawpack` part of
# `POST /api/v1/packages`, exactly what `clawhub package publish` sends.
set -euo pipefail

PKGS=${1:?usage: bench-npm-seed.sh PKGS_DIR}
BASE=${OURS_BASE:-http://127.0.0.1:18432}
if [ -z "${OURS_TOKEN:-}" ] && [ -n "${OURS_TOKEN_FILE:-}" ]; then
  OURS_TOKEN=$(cat "$OURS_TOKEN_FILE")
fi
TOKEN=${OURS_TOKEN:?set OURS_TOKEN or OURS_TOKEN_FILE}
SCRATCH=$(mktemp -d -t bench-npm-seed.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

count=0
t0=$(date +%s.%N)
for dir in $(ls -d "$PKGS"/*/ | sort -V); do
  [ -f "$dir/package.json" ] || continue
  copy="$SCRATCH/$(basename "$dir")"
  rm -rf "$copy"; cp -r "$dir" "$copy"
  read -r name version < <(python3 - "$copy" <<'PY'
import json, os, sys
d = sys.argv[1]
path = os.path.join(d, "package.json")
manifest = json.load(open(path))
manifest["openclaw"] = {"extensions": ["./SKILL.md"], "compat": {"pluginApi": ">=2026.1.0"},
                        "build": {"openclawVersion": "2026.9.6"}}
if "files" in manifest:
    manifest["files"].append("openclaw.plugin.json")
json.dump(manifest, open(path, "w"), indent=2)
plugin_id = manifest["name"].split("/")[-1]
json.dump({"id": plugin_id, "name": plugin_id, "configSchema": {"type": "object"}},
          open(os.path.join(d, "openclaw.plugin.json"), "w"))
print(manifest["name"], manifest["version"])
PY
)
  tarball=$(cd "$copy" && npm pack --silent --ignore-scripts --pack-destination "$SCRATCH" 2>/dev/null | tail -1)
  payload=$(python3 -c 'import json,sys; print(json.dumps({"name": sys.argv[1], "displayName": sys.argv[1], "family": "code-plugin", "version": sys.argv[2], "changelog": "benchmark", "tags": ["latest"], "source": {"kind": "github", "url": "https://github.com/bench/bench", "repo": "bench/bench", "ref": "main", "commit": "0123456789abcdef0123456789abcdef01234567", "path": "."}}))' "$name" "$version")
  status=$(curl -sS -o "$SCRATCH/response" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" \
    -F "payload=$payload" -F "clawpack=@$SCRATCH/$tarball;type=application/octet-stream" \
    "$BASE/api/v1/packages")
  if [ "$status" != 200 ]; then
    echo "publish $name@$version failed with $status: $(cat "$SCRATCH/response")" >&2
    exit 1
  fi
  count=$((count + 1))
done
t1=$(date +%s.%N)
echo "# published $count packages to $BASE in $(python3 -c "print(f'{$t1-$t0:.1f}')") s (npm pack + POST /api/v1/packages each)"
