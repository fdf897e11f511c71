# The service as a container, for client test suites (docs/guides/client-developers.md). Nothing on
# the machines this project is built on can run docker: the GitHub workflow builds this image and
# tries it (.github/workflows/ci.yml, job `container`). Kept minimal for that reason.
#
#   docker build -t petstore-service .
#   docker run --rm -p 8080:8080 petstore-service --seed demo --test-target on

# Build: the package exactly as `npm pack` makes it (prepare compiles src and adapters into lib/).
FROM node:24-slim AS build
WORKDIR /build
COPY package.json package-lock.json ./
# No script of any dependency, and not yet the package's own prepare: the sources come next.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json README.md LICENSE ./
COPY scripts/package-lib.mjs scripts/
COPY src src
COPY adapters adapters
COPY docs docs
RUN npm pack --pack-destination /tmp && mv /tmp/petstore-service-*.tgz /tmp/petstore-service.tgz

# Run: the tarball installed with its runtime dependencies only, as a user without privileges.
FROM node:24-slim
COPY --from=build /tmp/petstore-service.tgz /tmp/
RUN npm install --global --no-audit --no-fund /tmp/petstore-service.tgz && rm /tmp/petstore-service.tgz && npm cache clean --force
# The default HOST, 127.0.0.1, would answer only inside the container. Set the port with PORT, not
# --port: the health check reads it.
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
USER node
# Slim images have no curl: node asks /healthz itself.
HEALTHCHECK --interval=5s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((answer) => process.exit(answer.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["petstore-service"]
