# Tabula in a container: `docker build -t tabula .` then see compose.yaml or
# docs/operations.md. (Containers cannot be built on the project's own machines; this file is
# checked by tests for the settings it names, not built there.)

# Build: the release binary from the locked dependencies.
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin tabula \
    && strip target/release/tabula

# Run: a slim image with CA certificates (Telegram and Discord are reached over HTTPS), a
# non-root user, the SQLite file on a volume.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /var/lib/tabula --create-home tabula
COPY --from=build /src/target/release/tabula /usr/local/bin/tabula
USER tabula
WORKDIR /var/lib/tabula
VOLUME ["/var/lib/tabula"]
ENV DATABASE_URL=sqlite:///var/lib/tabula/tabula.db \
    TABULA_LISTEN=0.0.0.0:8080 \
    TABULA_LOG_FORMAT=json
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD curl --fail --silent --max-time 4 http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/tabula"]
CMD ["run"]
