package io.paramhub.docker;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.launcher.Settings;
import io.paramhub.registry.RegistrySettings;
import io.paramhub.registry.SchemaRegistryApp;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.yaml.snakeyaml.Yaml;

/**
 * The compose file, the Dockerfiles and the Kubernetes manifests agree with what the apps read: every
 * {@code KAFKA_*} variable is a Kafka setting the app takes, every {@code PARAMHUB_*} one is one of its options
 * (both derived from the apps' command lines), required settings are given, ports are the ones the apps
 * listen on, images are the ones the Dockerfiles build and run the apps' jars, probes hit the apps'
 * health routes. No Docker engine needed: the files are parsed.
 */
class DeploymentFilesTest {

    private static final Path DOCKER = Path.of(".");
    private static final Path ROOT = Path.of("..");
    private static final Pattern PORT_MAPPING = Pattern.compile("(?:.*:)?(\\d+):(\\d+)(?:/tcp)?");
    private static final Pattern HOST_PORT = Pattern.compile("(?:\\w+://)?([\\w.-]+):(\\d+)");

    @Test
    void shouldGiveEachComposeServiceOnlyVariablesItsAppReadsWhenParsed() throws IOException {
        // given
        final Map<String, Map<String, Object>> services = composeServices();
        final List<String> problems = new ArrayList<>();
        final Set<String> appsSeen = new TreeSet<>();

        // when
        services.forEach((name, service) -> {
            final AppSettings app = appOf(service);
            if (app == null) {
                return;
            }
            appsSeen.add(app.name());
            problems.addAll(app.problems("compose service " + name, environment(service)));
        });

        // then
        assertThat(problems).isEmpty();
        assertThat(appsSeen).containsExactlyInAnyOrder("aggregator", "orchestrator", "worker", "submit");
    }

    @Test
    void shouldRunKafkaInKraftModeAndFourWorkersWhenComposed() throws IOException {
        // given
        final Map<String, Map<String, Object>> services = composeServices();

        // when
        final Map<String, Object> kafka = services.get("kafka");
        final Map<String, String> kafkaEnv = environment(kafka);
        final List<Map<String, String>> workers = services.values().stream()
                .filter(service -> appOf(service) == AppSettings.WORKER)
                .map(DeploymentFilesTest::environment)
                .toList();

        // then: the official image of the Kafka version the apps are built with, in KRaft mode
        assertThat(kafka.get("image")).isEqualTo("apache/kafka:" + AppInfoParser.getVersion());
        assertThat(kafkaEnv.get("KAFKA_PROCESS_ROLES")).contains("broker", "controller");
        assertThat(kafkaEnv.keySet()).noneMatch(name -> name.contains("ZOOKEEPER"));
        assertThat(String.valueOf(services.get("schema-registry").get("image")))
                .startsWith("confluentinc/cp-schema-registry:");
        // four workers with indices 0..3 of four
        assertThat(workers).hasSize(4);
        assertThat(workers)
                .extracting(env -> env.get(Settings.optionEnv("--index")))
                .containsExactlyInAnyOrder("0", "1", "2", "3");
        assertThat(workers)
                .allSatisfy(env ->
                        assertThat(env.get(Settings.optionEnv("--workers"))).isEqualTo("4"));
        // and every app's bootstrap servers and registry are a listener Kafka advertises and the registry's port
        final String advertised = kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS");
        final String registryListener =
                environment(services.get("schema-registry")).get("SCHEMA_REGISTRY_LISTENERS");
        services.forEach((name, service) -> {
            if (appOf(service) != null) {
                final Map<String, String> env = environment(service);
                assertThat(advertised)
                        .as(name + " bootstrap servers")
                        .contains("//" + env.get(Settings.kafkaEnv("bootstrap.servers")));
                final Matcher registry = HOST_PORT.matcher(env.get(Settings.kafkaEnv("schema.registry.url")));
                assertThat(registry.matches()).isTrue();
                assertThat(services).as(name + " registry host").containsKey(registry.group(1));
                assertThat(registryListener).endsWith(":" + registry.group(2));
            }
        });
    }

    @Test
    void shouldPublishThePortEachAppListensOnAndBuildItsImageWhenComposed() throws IOException {
        // given
        final Map<String, Map<String, Object>> services = composeServices();
        final List<String> problems = new ArrayList<>();

        // when
        services.forEach((name, service) -> {
            final AppSettings app = appOf(service);
            if (app == null) {
                return;
            }
            final String image = String.valueOf(service.get("image"));
            if (!image.endsWith(":0.1.0")) {
                problems.add(name + ": image " + image + " is not tagged with the project version 0.1.0");
            }
            final Object build = service.get("build");
            if (build instanceof Map<?, ?> spec) {
                final Path dockerfile = DOCKER.resolve(String.valueOf(spec.get("context")))
                        .resolve(String.valueOf(spec.get("dockerfile")));
                if (!dockerfile.normalize().endsWith(Path.of("docker", dockerName(app) + ".Dockerfile"))
                        || !Files.isRegularFile(dockerfile)) {
                    problems.add(name + ": builds " + dockerfile + ", not docker/" + dockerName(app) + ".Dockerfile");
                }
            }
            final int port = httpPort(app, environment(service));
            @SuppressWarnings("unchecked")
            final List<Object> ports = (List<Object>) service.getOrDefault("ports", List.of());
            for (final Object mapping : ports) {
                final Matcher matcher = PORT_MAPPING.matcher(String.valueOf(mapping));
                if (!matcher.matches() || Integer.parseInt(matcher.group(2)) != port) {
                    problems.add(name + ": publishes " + mapping + " but the " + app.name() + " listens on " + port);
                }
            }
            if (app != AppSettings.SUBMIT && ports.isEmpty()) {
                problems.add(name + ": publishes no port for /metrics");
            }
            if (!ports.isEmpty()) {
                problems.addAll(bindHostProblems(name, environment(service)));
            }
        });

        // then
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldBuildEachAppInStagesAndRunItsJarAsANonRootUserWhenDockerfilesAreRead() throws Exception {
        for (final AppSettings app : List.of(AppSettings.AGGREGATOR, AppSettings.ORCHESTRATOR, AppSettings.WORKER)) {
            // given
            final String module = dockerName(app) + "-app";
            final Document pom = DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(ROOT.resolve(module).resolve("pom.xml").toFile());
            final String finalName = pom.getElementsByTagName("finalName")
                    .item(0)
                    .getTextContent()
                    .trim();
            final String mainClass = pom.getElementsByTagName("mainClass")
                    .item(0)
                    .getTextContent()
                    .trim();

            // when
            final List<String> lines = Files.readAllLines(DOCKER.resolve(dockerName(app) + ".Dockerfile"));
            final List<String> froms =
                    lines.stream().filter(line -> line.startsWith("FROM ")).toList();
            final String user = lines.stream()
                    .filter(line -> line.startsWith("USER "))
                    .reduce((a, b) -> b)
                    .orElse("");
            final String entrypoint = lines.stream()
                    .filter(line -> line.startsWith("ENTRYPOINT "))
                    .findFirst()
                    .orElse("");
            final Map<String, String> env = dockerfileEnv(lines);

            // then
            assertThat(mainClass).as(module + " main class").isEqualTo(app.mainClass());
            assertThat(froms).as(app.name() + " stages").hasSizeGreaterThanOrEqualTo(2);
            assertThat(froms.get(froms.size() - 1)).as(app.name() + " base").startsWith("FROM eclipse-temurin:17-jre");
            assertThat(user)
                    .as(app.name() + " user")
                    .isNotBlank()
                    .doesNotContain("root")
                    .isNotEqualTo("USER 0");
            assertThat(entrypoint).contains("\"-jar\"", "/app/" + finalName + ".jar");
            assertThat(lines)
                    .contains("COPY --from=build /src/" + module + "/target/" + finalName + ".jar /app/" + finalName
                            + ".jar");
            assertThat(lines).anyMatch(line -> line.equals("EXPOSE " + app.httpPort()));
            assertThat(env.get(Settings.optionEnv("--http-port"))).isEqualTo(Integer.toString(app.httpPort()));
            final Map<String, String> withRequired = new HashMap<>(env);
            app.requiredEnv().forEach(name -> withRequired.putIfAbsent(name, "given at run time"));
            assertThat(app.problems(app.name() + ".Dockerfile", withRequired)).isEmpty();
        }
    }

    @Test
    void shouldBuildTheRegistryInStagesAndRunItsJarAsANonRootUserWhenItsDockerfileIsRead() throws Exception {
        // given
        final Document pom = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(ROOT.resolve("registry").resolve("pom.xml").toFile());
        final String finalName =
                pom.getElementsByTagName("finalName").item(0).getTextContent().trim();
        final String mainClass =
                pom.getElementsByTagName("mainClass").item(0).getTextContent().trim();

        // when
        final List<String> lines = Files.readAllLines(DOCKER.resolve("registry.Dockerfile"));
        final List<String> froms =
                lines.stream().filter(line -> line.startsWith("FROM ")).toList();
        final String user = lines.stream()
                .filter(line -> line.startsWith("USER "))
                .reduce((a, b) -> b)
                .orElse("");
        final String entrypoint = lines.stream()
                .filter(line -> line.startsWith("ENTRYPOINT "))
                .findFirst()
                .orElse("");

        // then
        assertThat(mainClass).isEqualTo(SchemaRegistryApp.class.getName());
        assertThat(froms).hasSizeGreaterThanOrEqualTo(2);
        assertThat(froms.get(froms.size() - 1)).startsWith("FROM eclipse-temurin:17-jre");
        assertThat(user).isNotBlank().doesNotContain("root").isNotEqualTo("USER 0");
        assertThat(entrypoint).contains("\"-jar\"", "/app/" + finalName + ".jar");
        assertThat(lines)
                .contains("COPY --from=build /src/registry/target/" + finalName + ".jar /app/" + finalName + ".jar");
        assertThat(lines).contains("EXPOSE " + RegistrySettings.DEFAULT_PORT);
    }

    @Test
    void shouldLetParamhubRegistryTakeTheComposeRegistrysPlaceWhenItsImageIsSwappedIn() throws IOException {
        // given: the variables compose gives Confluent's image
        final Map<String, Object> service = composeServices().get("schema-registry");
        final Map<String, String> kafkaEnv = environment(composeServices().get("kafka"));

        // when: ParamHub's registry reads them
        final RegistrySettings settings = RegistrySettings.resolve(
                environment(service), new Properties(), Map.of(), new RegistrySettings.Options(null, null, null, null));

        // then: it listens on the published port and reaches the broker at an advertised listener
        @SuppressWarnings("unchecked")
        final List<Object> ports = (List<Object>) service.get("ports");
        assertThat(ports).allSatisfy(mapping -> {
            final Matcher matcher = PORT_MAPPING.matcher(String.valueOf(mapping));
            assertThat(matcher.matches()).isTrue();
            assertThat(Integer.parseInt(matcher.group(2))).isEqualTo(settings.port());
        });
        assertThat(settings.topic()).isEqualTo("_schemas");
        assertThat(kafkaEnv.get("KAFKA_ADVERTISED_LISTENERS"))
                .contains("//" + settings.kafka().get("bootstrap.servers"));
        // and the compose file says how to swap it in
        assertThat(Files.readAllLines(DOCKER.resolve("compose.yaml")))
                .contains(
                        "    # image: paramhub/registry:0.1.0",
                        "    # build: {context: .., dockerfile: docker/registry.Dockerfile}");
    }

    @Test
    void shouldGiveEachPodOnlyVariablesItsAppReadsAndProbeItsHealthRoutesWhenManifestsAreParsed() throws IOException {
        // given
        final List<Map<String, Object>> documents = manifests();
        final Map<String, Map<String, String>> configMaps = new HashMap<>();
        documents.stream()
                .filter(doc -> "ConfigMap".equals(doc.get("kind")))
                .forEach(doc -> configMaps.put(name(doc), stringMap(map(doc.get("data")))));
        final List<String> problems = new ArrayList<>();
        final Map<String, AppSettings> workloads = new LinkedHashMap<>();

        // when
        for (final Map<String, Object> doc : documents) {
            final Map<String, Object> template = podTemplate(doc);
            if (template == null) {
                continue;
            }
            for (final Object item : list(map(template.get("spec")).get("containers"))) {
                final Map<String, Object> container = map(item);
                final String where = doc.get("kind") + " " + name(doc) + " container " + container.get("name");
                final AppSettings app = AppSettings.forContainer(
                        String.valueOf(container.get("image")), stringList(container.get("command")));
                if (app == null) {
                    problems.add(where + ": image " + container.get("image") + " is no ParamHub app");
                    continue;
                }
                workloads.put(doc.get("kind") + "/" + name(doc), app);
                final Map<String, String> env = new LinkedHashMap<>();
                for (final Object from : list(container.get("envFrom"))) {
                    final String configMap =
                            String.valueOf(map(map(from).get("configMapRef")).get("name"));
                    if (!configMaps.containsKey(configMap)) {
                        problems.add(where + ": no ConfigMap " + configMap);
                    } else {
                        env.putAll(configMaps.get(configMap));
                    }
                }
                for (final Object variable : list(container.get("env"))) {
                    env.put(
                            String.valueOf(map(variable).get("name")),
                            String.valueOf(map(variable).get("value")));
                }
                problems.addAll(app.problems(where, env));
                problems.addAll(portAndProbeProblems(where, app, env, container));
            }
        }

        // then
        assertThat(problems).isEmpty();
        assertThat(workloads)
                .containsEntry("StatefulSet/paramhub-aggregator", AppSettings.AGGREGATOR)
                .containsEntry("StatefulSet/paramhub-orchestrator", AppSettings.ORCHESTRATOR)
                .containsEntry("StatefulSet/paramhub-worker", AppSettings.WORKER)
                .containsEntry("Job/paramhub-submit-job", AppSettings.SUBMIT);
    }

    @Test
    void shouldKeepStreamsStateOnAVolumeAndRouteEveryServiceToAPodPortWhenManifestsAreParsed() throws IOException {
        // given
        final List<Map<String, Object>> documents = manifests();
        final List<String> problems = new ArrayList<>();
        final Set<String> services = new TreeSet<>();

        // when
        for (final Map<String, Object> doc : documents) {
            if ("Service".equals(doc.get("kind"))) {
                services.add(name(doc));
                problems.addAll(serviceProblems(doc, documents));
            }
            if (!"StatefulSet".equals(doc.get("kind"))) {
                continue;
            }
            final Map<String, Object> spec = map(doc.get("spec"));
            final Map<String, Object> container =
                    map(list(map(map(spec.get("template")).get("spec")).get("containers"))
                            .get(0));
            final AppSettings app = AppSettings.forContainer(String.valueOf(container.get("image")), List.of());
            if (app == AppSettings.AGGREGATOR || app == AppSettings.ORCHESTRATOR) {
                final String stateDir = list(container.get("env")).stream()
                        .map(DeploymentFilesTest::map)
                        .filter(variable -> Settings.kafkaEnv("state.dir").equals(variable.get("name")))
                        .map(variable -> String.valueOf(variable.get("value")))
                        .findFirst()
                        .orElse(null);
                final Set<String> claims = new TreeSet<>();
                list(spec.get("volumeClaimTemplates")).forEach(claim -> claims.add(name(map(claim))));
                final boolean mounted = list(container.get("volumeMounts")).stream()
                        .map(DeploymentFilesTest::map)
                        .anyMatch(mount -> claims.contains(String.valueOf(mount.get("name")))
                                && stateDir != null
                                && stateDir.startsWith(String.valueOf(mount.get("mountPath"))));
                if (!mounted) {
                    problems.add(name(doc) + ": state directory " + stateDir + " is not on a volume claim " + claims);
                }
            }
            if (!services.contains(String.valueOf(spec.get("serviceName")))
                    && documents.stream()
                            .noneMatch(other -> "Service".equals(other.get("kind"))
                                    && String.valueOf(spec.get("serviceName")).equals(name(other)))) {
                problems.add(name(doc) + ": serviceName " + spec.get("serviceName") + " is no Service");
            }
        }

        // then
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldLoadPluginJarsFromOneDirectoryInEveryAppWhenDeploymentFilesAreRead() throws IOException {
        // given
        final String plugins = "/opt/paramhub/plugins";
        final List<String> problems = new ArrayList<>();

        // when: the images set the variable and create the directory
        for (final AppSettings app : List.of(AppSettings.AGGREGATOR, AppSettings.ORCHESTRATOR, AppSettings.WORKER)) {
            final List<String> lines = Files.readAllLines(DOCKER.resolve(dockerName(app) + ".Dockerfile"));
            if (!plugins.equals(dockerfileEnv(lines).get(Settings.optionEnv("--plugins")))
                    || lines.stream().noneMatch(line -> line.contains("mkdir -p") && line.contains(plugins))) {
                problems.add(app.name() + ".Dockerfile: no " + Settings.optionEnv("--plugins") + "=" + plugins);
            }
        }
        // every app's compose service and pod mounts something there
        composeServices().forEach((name, service) -> {
            if (appOf(service) != null
                    && stringList(service.get("volumes")).stream()
                            .noneMatch(volume -> volume.contains(":" + plugins))) {
                problems.add("compose service " + name + ": nothing mounted at " + plugins);
            }
        });
        for (final Map<String, Object> doc : manifests()) {
            final Map<String, Object> template = podTemplate(doc);
            if (template == null) {
                continue;
            }
            for (final Object container : list(map(template.get("spec")).get("containers"))) {
                if (list(map(container).get("volumeMounts")).stream()
                        .noneMatch(mount -> plugins.equals(map(mount).get("mountPath")))) {
                    problems.add(doc.get("kind") + " " + name(doc) + ": nothing mounted at " + plugins);
                }
            }
        }

        // then
        assertThat(problems).isEmpty();
    }

    private static List<String> portAndProbeProblems(
            final String where,
            final AppSettings app,
            final Map<String, String> env,
            final Map<String, Object> container) {
        final List<String> problems = new ArrayList<>();
        if (app == AppSettings.SUBMIT) {
            return problems;
        }
        problems.addAll(bindHostProblems(where, env));
        final int port = httpPort(app, env);
        final Map<String, Integer> ports = new HashMap<>();
        list(container.get("ports"))
                .forEach(item -> ports.put(
                        String.valueOf(map(item).get("name")),
                        ((Number) map(item).get("containerPort")).intValue()));
        if (!Integer.valueOf(port).equals(ports.get("http"))) {
            problems.add(where + ": container port 'http' is " + ports.get("http") + ", the " + app.name()
                    + " listens on " + port);
        }
        for (final String probe : List.of("livenessProbe", "readinessProbe")) {
            final Map<String, Object> get = map(map(container.get(probe)).get("httpGet"));
            final Object probePort = get.get("port");
            if (!List.of(OpsEndpoints.LIVE, OpsEndpoints.READY).contains(String.valueOf(get.get("path")))
                    || !(ports.containsKey(String.valueOf(probePort))
                            || Integer.valueOf(port).equals(probePort))) {
                problems.add(where + ": " + probe + " " + get + " is not a health route on the app's port");
            }
        }
        return problems;
    }

    private static List<String> serviceProblems(
            final Map<String, Object> service, final List<Map<String, Object>> documents) {
        final List<String> problems = new ArrayList<>();
        final Map<String, String> selector =
                stringMap(map(map(service.get("spec")).get("selector")));
        final List<Map<String, Object>> pods = documents.stream()
                .map(DeploymentFilesTest::podTemplate)
                .filter(template -> template != null
                        && stringMap(map(map(template.get("metadata")).get("labels")))
                                .entrySet()
                                .containsAll(selector.entrySet()))
                .toList();
        if (pods.isEmpty()) {
            problems.add("Service " + name(service) + ": selector " + selector + " matches no pod");
            return problems;
        }
        for (final Object item : list(map(service.get("spec")).get("ports"))) {
            final Object target = map(item).get("targetPort");
            final boolean found = pods.stream()
                    .flatMap(pod -> list(map(pod.get("spec")).get("containers")).stream())
                    .flatMap(container -> list(map(container).get("ports")).stream())
                    .map(DeploymentFilesTest::map)
                    .anyMatch(port -> String.valueOf(target).equals(String.valueOf(port.get("name")))
                            || String.valueOf(target).equals(String.valueOf(port.get("containerPort"))));
            if (!found) {
                problems.add("Service " + name(service) + ": targetPort " + target + " is no port of its pods");
            }
        }
        return problems;
    }

    /**
     * The apps bind 127.0.0.1 unless told otherwise, which nothing outside a container reaches: a container
     * whose port is published or probed must set PARAMHUB_HTTP_HOST to every interface.
     */
    private static List<String> bindHostProblems(final String where, final Map<String, String> env) {
        final String host = env.get(Settings.optionEnv("--http-host"));
        return "0.0.0.0".equals(host)
                ? List.of()
                : List.of(where + ": " + Settings.optionEnv("--http-host") + " is " + host + ", so the app binds "
                        + HttpOptions.DEFAULT_BIND_HOST + " and its port is unreachable from outside the container");
    }

    /** The HTTP port an app listens on with {@code env}: PARAMHUB_HTTP_PORT, else the app's default. */
    private static int httpPort(final AppSettings app, final Map<String, String> env) {
        final String given = env.get(Settings.optionEnv("--http-port"));
        return given == null ? app.httpPort() : Integer.parseInt(given);
    }

    private static String dockerName(final AppSettings app) {
        return app == AppSettings.SUBMIT ? "worker" : app.name();
    }

    private static AppSettings appOf(final Map<String, Object> service) {
        final Object image = service.get("image");
        if (image == null || !String.valueOf(image).startsWith("paramhub/")) {
            return null;
        }
        return AppSettings.forContainer(String.valueOf(image), stringList(service.get("entrypoint")));
    }

    private static Map<String, String> dockerfileEnv(final List<String> lines) {
        final Map<String, String> env = new HashMap<>();
        final String joined = String.join("\n", lines).replace("\\\n", " ");
        joined.lines().filter(line -> line.startsWith("ENV ")).forEach(line -> {
            for (final String pair : line.substring(4).trim().split("\\s+")) {
                final int eq = pair.indexOf('=');
                if (eq > 0) {
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        });
        return env;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> composeServices() throws IOException {
        try (Reader reader = Files.newBufferedReader(DOCKER.resolve("compose.yaml"))) {
            final Map<String, Object> compose = new Yaml().load(reader);
            return (Map<String, Map<String, Object>>) compose.get("services");
        }
    }

    private static List<Map<String, Object>> manifests() throws IOException {
        final List<Map<String, Object>> documents = new ArrayList<>();
        try (Stream<Path> files = Files.list(DOCKER.resolve("k8s"))) {
            for (final Path file : files.filter(path -> path.toString().endsWith(".yaml"))
                    .sorted()
                    .toList()) {
                try (Reader reader = Files.newBufferedReader(file)) {
                    for (final Object doc : new Yaml().loadAll(reader)) {
                        if (doc != null) {
                            documents.add(map(doc));
                        }
                    }
                }
            }
        }
        return documents;
    }

    private static Map<String, Object> podTemplate(final Map<String, Object> doc) {
        final Object kind = doc.get("kind");
        if ("StatefulSet".equals(kind) || "Deployment".equals(kind) || "Job".equals(kind)) {
            return map(map(doc.get("spec")).get("template"));
        }
        return null;
    }

    private static Map<String, String> environment(final Map<String, Object> service) {
        final Object env = service.get("environment");
        if (env instanceof List<?> entries) {
            final Map<String, String> parsed = new LinkedHashMap<>();
            entries.forEach(entry -> {
                final String text = String.valueOf(entry);
                final int eq = text.indexOf('=');
                parsed.put(eq < 0 ? text : text.substring(0, eq), eq < 0 ? null : text.substring(eq + 1));
            });
            return parsed;
        }
        return stringMap(map(env));
    }

    private static String name(final Map<String, Object> doc) {
        return String.valueOf(map(doc.get("metadata")).get("name"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(final Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(final Object value) {
        return value instanceof List<?> ? (List<Object>) value : List.of();
    }

    private static List<String> stringList(final Object value) {
        return list(value).stream().map(String::valueOf).toList();
    }

    private static Map<String, String> stringMap(final Map<String, Object> values) {
        final Map<String, String> strings = new LinkedHashMap<>();
        values.forEach((key, value) -> strings.put(key, value == null ? null : String.valueOf(value)));
        return strings;
    }
}
