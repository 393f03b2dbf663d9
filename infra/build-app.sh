#!/bin/sh
# Builds what one image runs into OUT: the service compiled to JavaScript (tsc), with the workspace
# packages it imports (compiled too) and its production dependencies; no TypeScript sources, tsx,
# compiler, tests or dev dependencies.
#   sh infra/build-app.sh chat|search|console|cli OUT
# Run at the workspace root once `pnpm fetch` has filled the store from pnpm-lock.yaml: infra/Dockerfile
# does both, and so does infra/test/image.test.ts with an empty store. Nothing here asks the registry.
set -eu
service=$1
out=$2

# Every workspace package's dev dependencies (the compiler, type packages), from the store.
pnpm install --frozen-lockfile --offline
# tsc -b: the service and, through the references of its tsconfig.build.json, the packages it imports.
pnpm --filter "@chatsearch/${service}" run build
# pnpm 10's deploy copies the versions pnpm-lock.yaml pins (the ones CI tested) when workspace
# packages are injected; the setting is given here only, since in .npmrc it would make them copies
# instead of links during development. (--legacy would resolve versions anew from the registry's
# metadata, which is not in the store: it fails offline and may pick versions CI never ran.)
# The files copied are each package's "files" (dist and runtime data), not its sources.
pnpm --filter "@chatsearch/${service}" deploy --prod --offline --config.inject-workspace-packages=true "$out"
node infra/publish-manifests.mjs "$out"
sh infra/trim-deploy.sh "$out"
