# syntax=docker/dockerfile:1
# The ParamHub schema registry: java -jar paramhub-registry.jar, a Confluent-compatible registry (Avro) that keeps
# its schemas in Kafka's _schemas topic. It reads the variables Confluent's cp-schema-registry image reads
# (SCHEMA_REGISTRY_LISTENERS, SCHEMA_REGISTRY_KAFKASTORE_*), so it can take that image's place, or options:
#   docker run paramhub/registry:0.1.0 --bootstrap-servers kafka:9092
# Build from the repository root: docker build -f docker/registry.Dockerfile -t paramhub/registry:0.1.0 .

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -DskipTests -pl registry -am package

FROM eclipse-temurin:17-jre
# curl, for the health check compose runs against the registry (as against Confluent's image)
RUN command -v curl > /dev/null \
 || (apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*)
RUN groupadd --system --gid 10001 paramhub \
 && useradd --system --uid 10001 --gid paramhub --home-dir /app --shell /usr/sbin/nologin paramhub
WORKDIR /app
COPY --from=build /src/registry/target/lib/ /app/lib/
COPY --from=build /src/registry/target/paramhub-registry.jar /app/paramhub-registry.jar
USER 10001:10001
# the registry binds 127.0.0.1 unless told otherwise; in a container it serves every interface (--http-host and
# SCHEMA_REGISTRY_LISTENERS win over this)
ENV PARAMHUB_HTTP_HOST=0.0.0.0
EXPOSE 8081
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/paramhub-registry.jar"]
