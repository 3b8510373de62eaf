# The production image: runtime dependencies only, from the lock file (tsx, the TypeScript loader, is one of them), no
# embedded PostgreSQL (a development dependency: production runs on DATABASE_URL), run as the unprivileged node user.
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --chown=node:node . .
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "main.ts"]
