# syntax=docker/dockerfile:1
# The fieldops image: every process kind in one image (/app/dist/<kind>.mjs), the kind chosen by
# the command, as the Helm chart does for each Deployment:
#   docker build -t fieldops .
#   docker run fieldops                       # the gateway
#   docker run fieldops /app/dist/crm.mjs     # any other kind
# Runs as uid 1000 with only production dependencies; works with a read-only root filesystem
# (scratch under /tmp). Kinds and bundling: scripts/build-bundles.mjs. Deployment: docs/deploy.md.

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

# --- runtime ----------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# LOG_FORMAT=json: JSON log lines even under `docker run -t`, for the log collector (the readable
# lines are for `npm start` on a terminal: services/kit/src/log-readable.ts).
ENV NODE_ENV=production \
  LOG_FORMAT=json \
  HOST=0.0.0.0 \
  PORT=8080 \
  FIELDOPS_OPS_PORT=9090 \
  FIELDOPS_DATA_DIR=/tmp/fieldops
WORKDIR /app
# Owned by root and not writable by the process: the code cannot be changed at run time.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The node user of the base image, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 9090
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["/app/dist/gateway.mjs"]
