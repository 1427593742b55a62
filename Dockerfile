# syntax=docker/dockerfile:1
# Build stage: compiles native modules (better-sqlite3) and the TypeScript, then keeps production dependencies only.
FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY core ./core
COPY adapters ./adapters
COPY server ./server
# The package's ./testing entry re-exports the contract suites and fakes under test/ (see .dockerignore).
COPY testing ./testing
COPY test ./test
# The browser app (Vite + Preact) is built into dist/web and served by the service at /.
COPY web ./web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: no compiler, runs as the unprivileged "node" user.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
# glibc malloc gives freed memory back to the system: see SERVICE_MALLOC_ENV in server/node-flags.ts.
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=131072 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
# Compiled JavaScript and production dependencies only: no TypeScript, no tsx, no sources.
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node options: see server/node-flags.ts (V8's young generation bounded, a collection after ingestion).
CMD ["node", "--max-semi-space-size=8", "--expose-gc", "dist/server/main.js"]
