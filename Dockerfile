# syntax=docker/dockerfile:1
# Two stages: build compiles TypeScript and packs the package; runtime installs that tarball's
# production dependencies only (pinned by the lockfile) and runs as the unprivileged `node` user.
# test/deploy/image-replay.test.ts replays the runtime stage's steps without a Docker engine.
# Node 26 is the Active LTS line; pin a digest here (node:26-slim@sha256:...) for reproducible builds.
ARG NODE_IMAGE=node:26-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY catalog ./catalog
RUN npm run build && npm pack --ignore-scripts --pack-destination /tmp \
  && mkdir /out && tar -xzf /tmp/svc-mcp-*.tgz -C /out && cp package-lock.json /out/package/

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Owned by root and only readable by the runtime user: the process cannot rewrite its own code.
COPY --from=build /out/package/ ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The base image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
# SIGTERM (the default stop signal) lets in-flight waits answer before the process exits.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/cli/main.js", "serve"]
