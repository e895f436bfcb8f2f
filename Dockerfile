# syntax=docker/dockerfile:1
# One image for the five services; the process is chosen by APP at build
# time (docker build --build-arg APP=auth) or at run time (-e APP=auth).
#   build      npm ci, compile TypeScript to dist/
#   prod-deps  the same node_modules without devDependencies
#   runtime    node:20-slim, dist/ + production node_modules, USER node
ARG NODE_IMAGE=node:20-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# swagger-ui-dist pulls in an install-time analytics ping; CI images stay offline-friendly.
ENV SCARF_ANALYTICS=false \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY scripts ./scripts
RUN npm run build

# A separate stage, so the runtime image never carries the devDependencies in a lower layer.
FROM build AS prod-deps
RUN npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
ARG APP=gateway
ENV NODE_ENV=production \
    APP=${APP} \
    DATA_DIR=/app/.data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# Code and dependencies stay owned by root and read-only for the process;
# only DATA_DIR (development key rings, never used in production) is writable.
COPY --from=prod-deps /app/package.json /app/package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080 8081 8082 8083 8084
# exec: node becomes PID 1 and receives SIGTERM itself (graceful stop), not a shell.
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
