# syntax=docker/dockerfile:1
# Multi-stage build of the worker and facade images (docker-compose.yml builds both targets):
#   docker build --target worker -t sam3-stream/worker .
#   docker build --target facade -t sam3-stream/facade .

# ---- build: the whole reactor, as CI builds it (the native module needs g++ and CMake) ----------------------
FROM maven:3.9-eclipse-temurin-17 AS build
RUN apt-get update && apt-get install -y --no-install-recommends g++ cmake make && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .dockerignore keeps local target/ folders out: a host CMake cache in native/target would break the build
COPY . .
# the local repository lives in a cache mount, so a source change does not download every dependency again
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -DskipTests package

# ---- worker: the engine on the CPU backend, one record at a time ----------------------------------------------
FROM eclipse-temurin:17-jre AS worker
# curl serves the compose health check of GET /health/ready; libdeflate inflates PNG requests about twice as fast
# as the JDK's zlib (the native library loads it where present); jemalloc serves libtorch's allocations (below);
# uid 10001: recent Ubuntu bases already hold uid 1000; the mounted HF cache only has to be world-readable
RUN apt-get update && apt-get install -y --no-install-recommends curl libdeflate0 libjemalloc2 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 10001 --create-home sam3
WORKDIR /app
COPY --from=build /src/worker/target/sam3-worker.jar /app/
COPY --from=build /src/worker/target/lib /app/lib
# DJL unpacks libtorch from the bundled native jar into this folder on first start (offline: never downloads)
ENV DJL_CACHE_DIR=/home/sam3/.djl.ai
USER sam3
# /metrics (Prometheus), /health/live and /health/ready on the JDK's own HTTP server (SAM3_WORKER_HTTP_PORT)
ENV SAM3_WORKER_HTTP_PORT=9400
EXPOSE 9400
# The allocator and thread settings of the launcher (sam3), which explains each. libtorch's activations come from
# jemalloc, which reuses freed pages (one arena for every size, transparent huge pages, idle pages returned by a
# background thread); SAM3_ALLOCATOR=glibc with an empty LD_PRELOAD gives glibc's malloc, with two arenas and a
# fixed 1 MiB mmap threshold (0.15-0.3 GB lower peak, slower: docs/PERFORMANCE.md, "jemalloc"). libtorch's OpenMP
# threads sleep at once at the end of a parallel operator instead of spinning, which beside other CPU-bound
# containers gives the core to the thread the operator waits for ("OpenMP threads that sleep").
ENV SAM3_ALLOCATOR=jemalloc \
    LD_PRELOAD=libjemalloc.so.2 \
    MALLOC_CONF=oversize_threshold:0,thp:always,background_thread:true \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=1048576 \
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
    OMP_WAIT_POLICY=PASSIVE
# Tensors live in libtorch's native memory, outside the Java heap, so the heap gets a small share of the
# container; the direct-memory cap makes the JVM free the weight load's staging buffers promptly (it defaults to
# the heap size). SIGTERM drains the record in flight and publishes STOPPED (compose's stop_grace_period covers it).
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=30", "-XX:MaxDirectMemorySize=512m", "-Dai.djl.offline=true", "-jar", "/app/sam3-worker.jar"]

# ---- facade: POST /predict over Kafka request-reply ------------------------------------------------------------
FROM eclipse-temurin:17-jre AS facade
# curl serves the compose health check of GET /health
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 10001 --create-home sam3
WORKDIR /app
COPY --from=build /src/http-facade/target/sam3-http-facade.jar /app/
COPY --from=build /src/http-facade/target/lib /app/lib
USER sam3
EXPOSE 20000
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/sam3-http-facade.jar"]
