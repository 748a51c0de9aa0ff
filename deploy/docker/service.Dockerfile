# syntax=docker/dockerfile:1
# Every Node service of Pagecast (account, file-conversion, marketplace, billing, and any added later): one Dockerfile,
# one image per service chosen by build arguments. Build context: the repository root.
#   docker build -f deploy/docker/service.Dockerfile --build-arg WORKSPACE=services/account --build-arg PORT=4101 \
#     -t pagecast/account .
# file-conversion also passes APT_PACKAGES (LibreOffice, CJK fonts); compose.yaml holds every service's arguments.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- production dependencies of this workspace only
FROM ${NODE_IMAGE} AS deps
ARG WORKSPACE
WORKDIR /app
# Manifests first, so the npm ci layer is reused until a dependency changes. npm ci checks the lock against every
# workspace, so every workspace manifest is copied (a test checks this list); only the named workspace's tree is installed.
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
RUN test -n "${WORKSPACE}" || (echo "build argument WORKSPACE is required (e.g. services/account)" >&2; exit 1)
RUN --mount=type=cache,target=/root/.npm \
    npm ci -w ${WORKSPACE} --omit=dev --no-audit --no-fund

# --- the process compiled to one JavaScript bundle (scripts/lib/compile.mjs; esbuild pinned to the repository's
# version, installed apart since npm ci -w installs no root devDependency)
FROM ${NODE_IMAGE} AS compile
ARG WORKSPACE
WORKDIR /app
RUN --mount=type=cache,target=/root/.npm \
    npm install --prefix /opt/esbuild --no-audit --no-fund esbuild@0.28.2
COPY --from=deps /app ./
COPY packages/ packages/
COPY scripts/lib/compile.mjs scripts/lib/
COPY ${WORKSPACE}/ ${WORKSPACE}/
RUN ESBUILD_PATH=/opt/esbuild/node_modules/esbuild/lib/main.js node scripts/lib/compile.mjs ${WORKSPACE}

# --- runtime: the compiled bundle run by node, with the production dependencies (no sources, no TypeScript)
FROM ${NODE_IMAGE} AS runtime
ARG WORKSPACE
ARG PORT=8080
# Debian packages the service needs at run time (file-conversion: MuPDF's mutool draws PDF pages, LibreOffice Writer
# and Impress convert PPTX and DOCX to PDF, Noto CJK renders Japanese text that LibreOffice lays out). HOME=/tmp: LibreOffice keeps its profile there.
ARG APT_PACKAGES=""
RUN if [ -n "${APT_PACKAGES}" ]; then \
      apt-get update && apt-get install -y --no-install-recommends ${APT_PACKAGES} && rm -rf /var/lib/apt/lists/*; \
    fi
ENV NODE_ENV=production \
    PORT=${PORT} \
    HOME=/tmp
WORKDIR /app
COPY --from=deps /app ./
COPY --from=compile /app/${WORKSPACE}/dist ${WORKSPACE}/dist
# The bundle stays root-owned and read-only to the process; it writes only to /tmp (LibreOffice's profile).
USER node
WORKDIR /app/${WORKSPACE}
EXPOSE ${PORT}
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/main.mjs"]
