# One image for the four fincore processes and the CLI; the command picks the process.
# Reproducible from package-lock.json (npm ci); .env and local state stay out (.dockerignore).
# Health checks are per process in docker-compose.yml, where each one's port is known.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
CMD ["node", "dist/apps/credentials-api/src/main.js"]
