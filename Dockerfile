# Multi-stage build of the worker and facade images:
#   docker build --target worker -t sam3-stream/worker .
#   docker build --target facade -t sam3-stream/facade .
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml ./
COPY schemas/pom.xml schemas/
COPY native/pom.xml native/
COPY worker/pom.xml worker/
COPY http-facade/pom.xml http-facade/
RUN apt-get update && apt-get install -y --no-install-recommends g++ cmake make && rm -rf /var/lib/apt/lists/*
COPY . .
RUN mvn -B -q -DskipTests package

FROM eclipse-temurin:17-jre AS worker
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 1000 --create-home sam3
WORKDIR /app
COPY --from=build /src/worker/target/sam3-worker.jar /app/
COPY --from=build /src/worker/target/lib /app/lib
ENV DJL_CACHE_DIR=/home/sam3/.djl.ai
USER sam3
# SIGTERM drains the current record and publishes STOPPED; compose's stop_grace_period leaves time for a forward
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=80", "-Dai.djl.offline=true", "-jar", "/app/sam3-worker.jar", "worker"]

FROM eclipse-temurin:17-jre AS facade
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 1000 --create-home sam3
WORKDIR /app
COPY --from=build /src/http-facade/target/sam3-http-facade.jar /app/
COPY --from=build /src/http-facade/target/lib /app/lib
USER sam3
EXPOSE 20000
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/sam3-http-facade.jar"]
