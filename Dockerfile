# syntax=docker/dockerfile:1
# The server as a container image: `docker build -t club-training-service .`
# docs/OPERATIONS.md says how to run it (alone, with compose.yaml, or several behind a load balancer).

# Node of the same version the workspace pins (package.json, devDependency "node").
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Build: install the workspace, build the server and the packages it needs, and lay out the server
# with its production dependencies only (pnpm deploy), as /app.
FROM ${NODE_IMAGE} AS build
ENV CI=true TURBO_TELEMETRY_DISABLED=1
WORKDIR /src
COPY . .
RUN npx --yes pnpm@10.34.8 install --frozen-lockfile \
 && npx --yes pnpm@10.34.8 exec turbo run build --filter=@club/server... \
 && npx --yes pnpm@10.34.8 --filter @club/server deploy --prod --legacy /app

# Run: the laid-out server, owned by root and read-only to the user it runs as. The one place it
# writes is DATA_DIR (the embedded database and the generated token secret), a volume; with
# DATABASE_URL and JWT_SECRET set it writes nowhere, and the root filesystem may be read-only.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# Ready means the database answers; Node's fetch, since the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: Node is process 1 and gets SIGTERM itself, and drains as it does outside a container.
ENTRYPOINT ["node", "--no-allocation-site-pretenuring", "--max-semi-space-size=16", "dist/main.js"]
