# syntax=docker/dockerfile:1.7
# One image per process: docker build --build-arg SERVICE=pricing -t rental/pricing .
# SERVICE is gateway, pricing, cart-checkout, case-workflow, documents, notifications, backoffice
# or stack (the seed command, the hub stub and the dev identity provider of a development deployment).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json ./
COPY tooling ./tooling
COPY proto ./proto
COPY libs ./libs
COPY gateway ./gateway
COPY services ./services
COPY tools ./tools
COPY tests/package.json ./tests/package.json
COPY bench/package.json ./bench/package.json
COPY fixtures ./fixtures
RUN npm ci --no-audit --no-fund && npx turbo run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ARG SERVICE
ARG API_BUILD_TAG
RUN test -n "$SERVICE" || (echo "build with --build-arg SERVICE=<name>" && exit 1)
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    SERVICE=${SERVICE} \
    API_BUILD_TAG=${API_BUILD_TAG}
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 8080 50051
# gateway and tools live at the top level, services under services/.
CMD ["sh", "-c", "case \"$SERVICE\" in gateway) dir=gateway; entry=start.js;; stack) dir=tools/stack; entry=cli/hub-stub.js;; *) dir=services/$SERVICE; entry=start.js;; esac; exec node --enable-source-maps \"$dir/dist/$entry\""]
