# syntax=docker/dockerfile:1
# The fieldops image: every process kind in one image (/app/dist/<kind>.mjs), the kind chosen by
# the command, as the Helm chart does for each Deployment:
#   docker build -t fieldops .                # the runtime target (the default: the last stage)
#   docker run fieldops                       # the gateway
#   docker run fieldops /app/dist/crm.mjs     # any other kind
#   docker build --target worker -t fieldops-worker .   # the runtime plus COLMAP
#   docker run fieldops-worker                # the capture worker
# Runs as uid 1000 with only production dependencies; works with a read-only root filesystem
# (scratch under /tmp). Kinds and bundling: scripts/build-bundles.mjs. Deployment: docs/deploy.md.
# Without a registry, `npm run image -- build` makes NODE_IMAGE locally and builds both targets
# with buildah (scripts/image/).

ARG NODE_IMAGE=node:24-bookworm-slim

# --- manifests: only what `npm ci` reads, so the install layers below are reused until a
# dependency changes (scripts/workspace-manifests.mjs follows the root package.json's workspaces)
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN node scripts/workspace-manifests.mjs /manifests

# --- build: every dependency, TypeScript compiled and bundled per process kind ----------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY --from=manifests /manifests/ ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/build-bundles.mjs /src/dist

# --- production dependencies only: what the bundles import at run time ------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=manifests /manifests/ ./
# The workspaces' own code is inside the bundles: drop their links into node_modules.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@fieldops \
  && npm cache clean --force

# --- runtime-settings: what both images share before the application goes in -------------------
FROM ${NODE_IMAGE} AS runtime-settings
# LOG_FORMAT=json: JSON log lines even under `docker run -t`, for the log collector (the readable
# lines are for `npm start` on a terminal: services/kit/src/log-readable.ts).
ENV NODE_ENV=production \
  LOG_FORMAT=json \
  HOST=0.0.0.0 \
  PORT=8080 \
  FIELDOPS_OPS_PORT=9090 \
  FIELDOPS_DATA_DIR=/tmp/fieldops
WORKDIR /app

# --- runtime ----------------------------------------------------------------------------------
FROM runtime-settings AS runtime
# Owned by root and not writable by the process: the code cannot be changed at run time.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The node user of the base image, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 9090
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["/app/dist/gateway.mjs"]

# --- colmap: the shared settings plus COLMAP (Debian's CPU build). Installed before the
# application is copied in, so a change of code reuses this layer instead of installing COLMAP again.
# Its own image because COLMAP and its libraries (Qt, Ceres, Boost) are several hundred MB that no
# other kind needs.
FROM runtime-settings AS colmap
RUN export DEBIAN_FRONTEND=noninteractive \
  && apt-get update \
  && apt-get install -y --no-install-recommends colmap \
  && rm -rf /var/lib/apt/lists/*
# COLMAP links Qt even for its command-line steps; with no display, Qt must not look for one. The
# engine sets this per call too (services/capture/src/worker/colmap/colmap-cli.ts); set here, any
# colmap run in the image works, `colmap help` at the worker's start included.
ENV QT_QPA_PLATFORM=offscreen

# --- worker: COLMAP plus exactly the runtime's application, user and entrypoint, for the capture
# worker's photogrammetry.
FROM colmap AS worker
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
USER 1000:1000
EXPOSE 9090
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["/app/dist/capture-worker.mjs"]

# --- the default target: `docker build .` without --target makes the runtime image, as before the
# worker stage existed (Docker builds the last stage).
FROM runtime AS default
