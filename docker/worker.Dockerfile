# syntax=docker/dockerfile:1
# The ParamHub worker: java -jar paramhub-worker.jar, configured by KAFKA_* and PARAMHUB_* variables.
# Model and data set provider jars mounted at /opt/paramhub/plugins are loaded at start-up (PARAMHUB_PLUGINS;
# docs/models.md, "Deploying your own model without rebuilding an image"); the directory is empty in the image.
# Build from the repository root: docker build -f docker/worker.Dockerfile -t paramhub/worker:0.1.0 .

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -DskipTests -pl worker-app -am package

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 paramhub \
 && useradd --system --uid 10001 --gid paramhub --home-dir /app --shell /usr/sbin/nologin paramhub \
 && mkdir -p /var/lib/paramhub /opt/paramhub/plugins \
 && chown paramhub:paramhub /var/lib/paramhub
WORKDIR /app
COPY --from=build /src/worker-app/target/lib/ /app/lib/
COPY --from=build /src/worker-app/target/paramhub-worker.jar /app/paramhub-worker.jar
# the example job files, for the submitter in this jar: --entrypoint java ... SubmitJobApp /opt/paramhub/jobs/mlp.yaml
COPY examples/jobs/ /opt/paramhub/jobs/
USER 10001:10001
ENV PARAMHUB_HTTP_PORT=8092 \
    PARAMHUB_PLUGINS=/opt/paramhub/plugins
EXPOSE 8092
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/paramhub-worker.jar"]
