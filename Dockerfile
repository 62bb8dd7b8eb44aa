# The 保皇 Baohuang game server (docs/deploy.md). With PostgreSQL: docker compose up --build
# (compose.yaml). Alone, on an SQLite file in the /data volume:
#   docker build -t baohuang . && docker run -p 8000:8000 -v baohuang-data:/data baohuang
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The package and its PostgreSQL driver; the source is not kept in the image.
COPY pyproject.toml README.md LICENSE /tmp/baohuang/
COPY src /tmp/baohuang/src
RUN pip install "/tmp/baohuang[postgres]" && rm -rf /tmp/baohuang

# A user without privileges, owning only /data (the SQLite file when no --database is given).
RUN useradd --system --uid 10001 --user-group --no-create-home baohuang \
    && mkdir /data && chown baohuang:baohuang /data
USER baohuang
WORKDIR /data
VOLUME /data
EXPOSE 8000

# Liveness: the process answers (compose.yaml checks readiness, /readyz, instead).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=3)"]

ENTRYPOINT ["baohuang", "serve", "--host", "0.0.0.0", "--port", "8000"]
# More options of `baohuang serve` (docker run IMAGE --database URL …) replace these.
CMD ["--log-format", "json"]
