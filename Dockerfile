# syntax=docker/dockerfile:1.7
# Identity service image: build once, run as an unprivileged user.
#   docker build -t identity-service .
#   docker run --env-file .env -p 3000:3000 identity-service
# Node 26 is the Active LTS line (LTS since 2026-10-28); override with
# --build-arg NODE_IMAGE=node:24-trixie-slim to stay on the previous LTS.
ARG NODE_IMAGE=node:26-trixie-slim

# ---- build: full dependency tree, compile TypeScript to dist/ and the console to console/dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npx nest build
# The developer console (console/, React + Vite) into console/dist, served at /console/ (decision 0801).
COPY clients ./clients
COPY console ./console
RUN npx vite build --config console/vite.config.mts

# ---- runtime: production dependencies and the compiled app only ----
FROM ${NODE_IMAGE} AS runtime
# postgresql-client: pg_dump/pg_restore for managed-database backups (a newer
# pg_dump reads older servers; trixie ships 17). ca-certificates: TLS to SMTP,
# geolocation and managed engines.
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
# Install scripts stay on: argon2 selects its prebuilt native binary at install.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
# The app's files stay root-owned and read-only to the process; only ./data (embedded
# Postgres without DATABASE_URL, .eml files without SMTP_URL, backup files) is writable.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 3000
# The slim image has no curl: probe liveness with Node's own fetch.
HEALTHCHECK --interval=15s --timeout=3s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (the app drains and closes on it).
# The Node flags are those of `npm run start:prod` (heap sizing, decision 0123; no pretenuring, 0186); a test keeps the two equal.
CMD ["node", "--no-allocation-site-pretenuring", "--max-old-space-size=160", "--max-semi-space-size=32", "dist/main.js"]
