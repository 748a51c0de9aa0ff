# syntax=docker/dockerfile:1
# Pagecast gateway. Build context: the repository root.
#   docker build -f deploy/docker/gateway.Dockerfile -t pagecast/gateway .
# Its own kind: the gateway image also holds the shell's static build, which it serves at /.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- the shell's static build, served by the gateway at / (docs/platform.md, "Front end composition")
FROM ${NODE_IMAGE} AS shell-build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/service-kit/package.json packages/service-kit/
COPY packages/federation/package.json packages/federation/
COPY packages/ui/package.json packages/ui/
COPY packages/i18n/package.json packages/i18n/
COPY packages/router/package.json packages/router/
COPY packages/verify/package.json packages/verify/
COPY packages/alerts/package.json packages/alerts/
COPY packages/policy/package.json packages/policy/
COPY services/account/package.json services/account/
COPY services/file-conversion/package.json services/file-conversion/
COPY services/marketplace/package.json services/marketplace/
COPY services/billing/package.json services/billing/
COPY services/screens/package.json services/screens/
COPY gateway/package.json gateway/
COPY shell/package.json shell/
COPY mf-files/package.json mf-files/
COPY mf-marketplace/package.json mf-marketplace/
COPY mf-player/package.json mf-player/
COPY tests/e2e/package.json tests/e2e/
RUN --mount=type=cache,target=/root/.npm \
    npm ci -w shell --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ packages/
COPY shell/ shell/
WORKDIR /app/shell
ENV NODE_ENV=production
RUN npm run build

# --- production dependencies of this workspace only
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# Manifests first, so the npm ci layer is reused until a dependency changes. npm ci checks the lock against every
# workspace, so every workspace manifest is copied; only the named workspace's dependency tree is installed.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/service-kit/package.json packages/service-kit/
COPY packages/federation/package.json packages/federation/
COPY packages/ui/package.json packages/ui/
COPY packages/i18n/package.json packages/i18n/
COPY packages/router/package.json packages/router/
COPY packages/verify/package.json packages/verify/
COPY packages/alerts/package.json packages/alerts/
COPY packages/policy/package.json packages/policy/
COPY services/account/package.json services/account/
COPY services/file-conversion/package.json services/file-conversion/
COPY services/marketplace/package.json services/marketplace/
COPY services/billing/package.json services/billing/
COPY services/screens/package.json services/screens/
COPY gateway/package.json gateway/
COPY shell/package.json shell/
COPY mf-files/package.json mf-files/
COPY mf-marketplace/package.json mf-marketplace/
COPY mf-player/package.json mf-player/
COPY tests/e2e/package.json tests/e2e/
RUN --mount=type=cache,target=/root/.npm \
    npm ci -w gateway --omit=dev --no-audit --no-fund

# --- the process compiled to one JavaScript bundle (scripts/lib/compile.mjs; esbuild pinned to the repository's
# version, installed apart since npm ci -w installs no root devDependency)
FROM ${NODE_IMAGE} AS compile
WORKDIR /app
RUN --mount=type=cache,target=/root/.npm \
    npm install --prefix /opt/esbuild --no-audit --no-fund esbuild@0.28.2
COPY --from=deps /app ./
COPY packages/ packages/
COPY scripts/lib/compile.mjs scripts/lib/
COPY gateway/ gateway/
RUN ESBUILD_PATH=/opt/esbuild/node_modules/esbuild/lib/main.js node scripts/lib/compile.mjs gateway

# --- runtime: the compiled bundle run by node, with the production dependencies (no sources, no TypeScript)
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    STATIC_DIR=/app/shell/dist \
    REMOTES='{"mf_files":"http://localhost:3001/mf-manifest.json","mf_marketplace":"http://localhost:3002/mf-manifest.json","mf_player":"http://localhost:3003/mf-manifest.json"}'
WORKDIR /app
COPY --from=deps /app ./
COPY --from=compile /app/gateway/dist gateway/dist
COPY --from=shell-build /app/shell/dist shell/dist
# The bundle stays root-owned and read-only to the process; its only writes are the edge cache of videos, in a
# folder of its own (a volume in Kubernetes: deploy/k8s/gateway.yaml; without one, the container's own layer).
ENV VIDEO_CACHE_DIR=/var/cache/pagecast/videos
RUN mkdir -p /var/cache/pagecast/videos && chown node:node /var/cache/pagecast/videos
USER node
WORKDIR /app/gateway
# 9090: the internal listener (/healthz, /readyz, /metrics); publish only 8080.
EXPOSE 8080 9090
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.INTERNAL_PORT || 9090) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# --max-semi-space-size=4 (MiB): the young generation capped, as scripts/lib/stack.mjs starts it (ownNodeArgs): grown
# by bursts of displays' reads, V8 kept it at about 100 MiB, empty, for good (docs/scale.md "Memory per display")
CMD ["node", "--max-semi-space-size=4", "--enable-source-maps", "dist/main.mjs"]
