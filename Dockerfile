# syntax=docker/dockerfile:1
# cluster-bot: one image, three roles (CLUSTER_BOT_ROLE=all|bot|worker).
# Build: docker build -t ghcr.io/homelab/cluster-bot:0.1.0 .

# Node 24 LTS, pinned by digest so a rebuild gets the same base (24.18.0 when pinned; bump the digest
# deliberately, as Renovate or Dependabot's docker ecosystem would).
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# --- build: full dependencies, TypeScript compiled to dist/ ---------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- runtime: production dependencies and the compiled output only -------------------------------
FROM ${NODE_IMAGE} AS runtime
# HOST: every interface, since loopback in a container is reachable by nobody (loopback is the default elsewhere).
ENV NODE_ENV=production DATA_DIR=/var/lib/cluster-bot HOST=0.0.0.0 PORT=3000 OPS_PORT=9090
WORKDIR /app

# A fixed numeric uid, so Kubernetes' runAsNonRoot can verify it and host-mounted secrets can be
# chowned to it (see deploy/README.md).
RUN groupadd --system --gid 10001 cluster-bot \
 && useradd --system --uid 10001 --gid 10001 --home-dir /nonexistent --no-create-home \
      --shell /usr/sbin/nologin cluster-bot \
 && mkdir -p /var/lib/cluster-bot \
 && chown 10001:10001 /var/lib/cluster-bot

COPY package.json package-lock.json ./
# No install script runs in the image that ships: ssh2's optional native crypto and cpu-features are
# not built, and ssh2 uses its pure JS implementation, which is what the tests exercise too.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# The job page's HTML, script and style, served by the bot itself (src/web/read-assets.ts).
COPY web ./web
# The default world when CLUSTER_BOT_CONFIG is unset (console mode, first run).
COPY config/example.yaml ./config/example.yaml

USER 10001:10001
# Job logs are written here before upload; the root filesystem may be read-only.
VOLUME ["/var/lib/cluster-bot"]
EXPOSE 3000 9090

# No curl in slim images: Node's fetch does the probe. Every role serves /healthz on $OPS_PORT.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 9090) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Node is PID 1 and handles SIGTERM itself (graceful shutdown in src/main.ts). The heap cap is npm
# start's (package.json): V8 sizes its old space from the host's memory otherwise, and on a big host
# lets the garbage of a streaming playbook pile up to hundreds of MB before collecting it
# (docs/benchmark.md, "Worker memory"). The live heap is about 50 MB.
CMD ["node", "--enable-source-maps", "--max-old-space-size=256", "dist/main.js"]
