# syntax=docker/dockerfile:1
# Every front end of Pagecast (the shell and the remotes): one Dockerfile, one image per front end chosen by build
# arguments; rspack builds it and nginx serves it as static files. Build context: the repository root.
#   docker build -f deploy/docker/frontend.Dockerfile --build-arg WORKSPACE=mf-player -t pagecast/mf-player .
#   docker build -f deploy/docker/frontend.Dockerfile --build-arg WORKSPACE=shell --build-arg NGINX_SITE=shell.conf \
#     -t pagecast/shell .
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
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
RUN test -n "${WORKSPACE}" || (echo "build argument WORKSPACE is required (e.g. mf-player)" >&2; exit 1)
RUN --mount=type=cache,target=/root/.npm \
    npm ci -w ${WORKSPACE} --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ packages/
COPY ${WORKSPACE}/ ${WORKSPACE}/
WORKDIR /app/${WORKSPACE}
ENV NODE_ENV=production
RUN npx --no-install rspack build

FROM nginx:stable-alpine AS runtime
ARG WORKSPACE
# remote.conf: CORS open (the shell fetches a remote's manifest and chunks from another origin); shell.conf: SPA fallback.
ARG NGINX_SITE=remote.conf
# nginx runs as the unprivileged nginx user on 8080: pid and temp files go to /tmp (deploy/nginx/nginx.conf).
COPY deploy/nginx/nginx.conf /etc/nginx/nginx.conf
COPY deploy/nginx/${NGINX_SITE} /etc/nginx/conf.d/default.conf
# dist/ only: the source maps stay in the build stage (/app/${WORKSPACE}/sourcemaps, for error reports; take them with
# `docker build --target build`), never in what nginx serves.
COPY --from=build /app/${WORKSPACE}/dist /usr/share/nginx/html
USER nginx
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 \
  CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
# Straight to nginx: the image's entrypoint scripts expect root to rewrite the config.
ENTRYPOINT ["nginx", "-g", "daemon off;"]
