package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.ActivationBatch;
import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.ShardMembers;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.avro.ShardState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.embedded.secure.AclScope;
import io.paramhub.embedded.secure.AppAcls;
import io.paramhub.embedded.secure.Role;
import io.paramhub.embedded.secure.SelfSignedCertificates;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.LinearProblem;
import io.paramhub.registry.SchemaRegistryServer;
import io.paramhub.schemas.registry.HttpSchemaRegistryClient;
import io.paramhub.testing.SecureTestCluster;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.TopicProvisioner;
import io.paramhub.topology.aggregator.AggregatorTopology;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Training on a cluster secured as a shared production cluster would be: SASL_SSL with SCRAM-SHA-512, an
 * authorizer that allows only ACLs, one principal per {@link Role} holding only its {@link AppAcls} (the aggregator,
 * the workers, the submitter and an observe-only orchestrator each train as their own), and
 * {@code auto.register.schemas=false} with the schemas registered beforehand by an admin step. Clients without
 * credentials, with wrong ones, or without ACLs are refused, and so is every write a role does not own (a worker
 * writing {@code model}, {@code commands}, {@code placements} or {@code jobs}, the orchestrator {@code model}, a
 * submitter {@code gradients}, a reader anything) and one app's principal using the other's transactional ids;
 * nothing refused reaches a topic. The schema registry is plain HTTP here; it reaches Kafka as the admin.
 */
@Tag("integration")
class SecureClusterIT {

    private static final String ADMIN = "admin";
    private static final String ADMIN_PASSWORD = "admin-secret";
    private static final String STRANGER = "stranger";
    private static final String STRANGER_PASSWORD = "stranger-secret";
    private static final String PREFIX = TopicCatalog.DEFAULT_PREFIX;
    private static final String JOBS = PREFIX + "jobs";

    @TempDir
    static Path dir;

    static SecureTestCluster kafka;
    static SchemaRegistryServer registry;

    @BeforeAll
    static void startSecureCluster() throws Exception {
        final SelfSignedCertificates certificates =
                SelfSignedCertificates.create(dir.resolve("certs"), "store-secret", 1);
        final Map<String, String> users = new HashMap<>(Map.of(ADMIN, ADMIN_PASSWORD, STRANGER, STRANGER_PASSWORD));
        Arrays.stream(Role.values()).forEach(role -> users.put(role.user(), password(role)));
        kafka = SecureTestCluster.start(certificates, users, ADMIN);
        try (Admin admin = Admin.create(kafka.client(ADMIN, ADMIN_PASSWORD))) {
            final List<AclBinding> acls = new ArrayList<>();
            for (final Role role : Role.values()) {
                acls.addAll(AppAcls.of(role, "User:" + role.user(), AclScope.defaults(PREFIX, List.of("data."))));
            }
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            // topics made by the admin, as on a shared cluster
            final TopicSetup setup = TopicSetup.defaults();
            new TopicProvisioner(admin)
                    .ensure(
                            TopicCatalog.create(PREFIX, SerdeFactory.forRegistry("mock://unused"))
                                    .layouts(setup.shardPartitions(), setup.otherPartitions()),
                            setup.replication());
        }
        final Map<String, Object> registryClients = new HashMap<>();
        kafka.client(ADMIN, ADMIN_PASSWORD).forEach((key, value) -> registryClients.put(key.toString(), value));
        registry = SchemaRegistryServer.start(registryClients, "127.0.0.1", 0);
        registerSchemas(new HttpSchemaRegistryClient(registry.url()));
    }

    @AfterAll
    static void stopSecureCluster() throws Exception {
        if (registry != null) {
            registry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void shouldTrainWhenEachAppHoldsOnlyItsRolesCredentialsAclsAndPreRegisteredSchemas() throws Exception {
        // given
        final Map<Role, KafkaConnection> roles = new EnumMap<>(Role.class);
        for (final Role role : List.of(Role.AGGREGATOR, Role.WORKER, Role.SUBMITTER)) {
            roles.put(role, KafkaConnection.of(settings(role)));
        }
        // the observer's stores and repartition topic are its own: it registers their schemas itself
        final Properties orchestrator = settings(Role.ORCHESTRATOR);
        orchestrator.remove("auto.register.schemas");
        roles.put(Role.ORCHESTRATOR, KafkaConnection.of(orchestrator));
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = LinearJobs.job("secure-bsp-linear", 2, 2, 2);

        // when
        final TrainingRun.Result result = new TrainingRun(
                        roles.get(Role.WORKER), PREFIX, Files.createDirectories(dir.resolve("streams")))
                .withRoles(roles)
                .withDashboard(0)
                .run(spec, problem.data(), RunListener.NONE);

        // then
        assertThat(result.last().version()).isEqualTo(result.job().iterations());
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    @Test
    void shouldRefuseAndWriteNothingWhenClientHasNoCredentials() {
        // given
        final Properties settings = kafka.client(ADMIN, ADMIN_PASSWORD);
        settings.put("security.protocol", "SSL");
        settings.remove("sasl.jaas.config");
        settings.remove("sasl.mechanism");

        // when / then
        assertThatThrownBy(() -> send(settings, "no-credentials")).isInstanceOf(Exception.class);
        assertThat(keysOnJobs()).doesNotContain("no-credentials");
    }

    @ParameterizedTest(name = "{0} writing {1}")
    @MethodSource("forbiddenWrites")
    void shouldRefuseAndWriteNothingWhenRoleWritesATopicItDoesNotOwn(final Role role, final String topic) {
        // given: a producer that is not idempotent, so that the topic's ACL is what refuses (a reader, with WRITE on
        // no topic, has its idempotent producer refused before, with a ClusterAuthorizationException)
        final Properties settings = kafka.client(role.user(), password(role));
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        final String key = "forbidden-" + role.user();

        // when / then
        assertThatThrownBy(() -> send(settings, PREFIX + topic, key))
                .hasRootCauseInstanceOf(TopicAuthorizationException.class)
                .rootCause()
                .satisfies(e -> assertThat(((TopicAuthorizationException) e).unauthorizedTopics())
                        .containsExactly(PREFIX + topic));
        assertThat(keysOn(PREFIX + topic)).doesNotContain(key);
    }

    static Stream<Arguments> forbiddenWrites() {
        final Stream<Arguments> owned = Stream.of(
                Arguments.of(Role.WORKER, "model"),
                Arguments.of(Role.WORKER, "commands"),
                Arguments.of(Role.WORKER, "placements"),
                Arguments.of(Role.WORKER, "jobs"),
                Arguments.of(Role.ORCHESTRATOR, "model"),
                Arguments.of(Role.SUBMITTER, "gradients"));
        final Stream<Arguments> reader = Stream.of(
                        "jobs",
                        "gradients",
                        "model",
                        "telemetry",
                        "commands",
                        "membership",
                        "dead-letters",
                        "placements")
                .map(topic -> Arguments.of(Role.READER, topic));
        return Stream.concat(owned, reader);
    }

    @Test
    void shouldRefuseTransactionalIdWhenItIsAnotherAppsAndAllowItsOwn() throws Exception {
        // given
        final String aggregators = AggregatorRunner.DEFAULT_APPLICATION_ID + "-" + UUID.randomUUID() + "-1";

        // when / then: neither the orchestrator nor a worker can fence the aggregator's transactions
        for (final Role role : List.of(Role.ORCHESTRATOR, Role.WORKER)) {
            assertThatThrownBy(() -> initTransactions(role, aggregators))
                    .as("%s", role)
                    .isInstanceOf(TransactionalIdAuthorizationException.class);
        }
        assertThatThrownBy(() -> initTransactions(Role.AGGREGATOR, "paramhub-orchestrator-" + UUID.randomUUID()))
                .isInstanceOf(TransactionalIdAuthorizationException.class);
        // while each may use its own
        initTransactions(Role.AGGREGATOR, aggregators);
        initTransactions(Role.WORKER, AppAcls.WORKER_ID_PREFIX + "secure-job.worker-000");
    }

    @Test
    void shouldRefuseAndWriteNothingWhenPasswordIsWrong() {
        // given
        final Properties settings = kafka.client(Role.WORKER.user(), "not-the-password");

        // when / then
        assertThatThrownBy(() -> send(settings, "wrong-password")).hasStackTraceContaining("Authentication failed");
        assertThat(keysOnJobs()).doesNotContain("wrong-password");
    }

    @Test
    void shouldRefuseAndWriteNothingWhenAuthenticatedUserHasNoAcls() {
        // given
        final Properties settings = kafka.client(STRANGER, STRANGER_PASSWORD);

        // when / then
        assertThatThrownBy(() -> send(settings, "no-acls")).hasStackTraceContaining("Not authorized");
        assertThat(keysOnJobs()).doesNotContain("no-acls");
    }

    /** The admin step: every subject the training writes, registered before any client of it runs. */
    private static void registerSchemas(final HttpSchemaRegistryClient admin) {
        final Map<String, Schema> subjects = new LinkedHashMap<>();
        subjects.put(PREFIX + "jobs", JobSpec.getClassSchema());
        subjects.put(PREFIX + "gradients", GradientShard.getClassSchema());
        subjects.put(PREFIX + "model", ModelShard.getClassSchema());
        subjects.put(PREFIX + "telemetry", IterationTelemetry.getClassSchema());
        subjects.put(PREFIX + "commands", ResourceCommand.getClassSchema());
        subjects.put(PREFIX + "membership", WorkerStatus.getClassSchema());
        subjects.put(PREFIX + "dead-letters", DeadLetter.getClassSchema());
        subjects.put(PREFIX + "shard-jobs", JobSpec.getClassSchema());
        subjects.put(PREFIX + "shard-membership", WorkerStatus.getClassSchema());
        subjects.put(PREFIX + "shard-commands", ResourceCommand.getClassSchema());
        subjects.put(PREFIX + "activations", ActivationBatch.getClassSchema());
        subjects.put(PREFIX + "activation-gradients", ActivationBatch.getClassSchema());
        subjects.put(PREFIX + "server-telemetry", ServerTelemetry.getClassSchema());
        subjects.put(PREFIX + "placements", ShardPlacement.getClassSchema());
        final String changelog = AggregatorRunner.DEFAULT_APPLICATION_ID + "-%s-changelog";
        subjects.put(changelog.formatted(AggregatorTopology.JOB_SPEC_STORE), JobSpec.getClassSchema());
        subjects.put(changelog.formatted(AggregatorTopology.SHARD_JOB_STORE), JobSpec.getClassSchema());
        subjects.put(changelog.formatted(AggregatorTopology.SHARD_STATE_STORE), ShardState.getClassSchema());
        subjects.put(changelog.formatted(AggregatorTopology.SHARD_MEMBER_STORE), ShardMembers.getClassSchema());
        subjects.put(changelog.formatted(AggregatorTopology.SHARD_SNAPSHOT_STORE), ShardState.getClassSchema());
        // no changelog, but Streams names the store's serialization after one
        subjects.put(changelog.formatted(AggregatorTopology.SHARD_MODEL_STORE), ModelShard.getClassSchema());
        subjects.forEach((topic, schema) -> admin.register(topic + "-value", schema));
    }

    private static String password(final Role role) {
        return role.user() + "-secret";
    }

    /** The settings of {@code role}'s principal, with the registry and no auto-registration. */
    private static Properties settings(final Role role) {
        final Properties settings = kafka.client(role.user(), password(role));
        settings.put("schema.registry.url", registry.url());
        settings.put("auto.register.schemas", "false");
        return settings;
    }

    /** Starts a transactional producer as {@code role} with {@code transactionalId}: fences its earlier ones. */
    private static void initTransactions(final Role role, final String transactionalId) {
        final Properties settings = kafka.client(role.user(), password(role));
        settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
        }
    }

    private static void send(final Properties settings, final String key) throws Exception {
        send(settings, JOBS, key);
    }

    private static void send(final Properties settings, final String topic, final String key) throws Exception {
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5_000);
        settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(
                            topic, key.getBytes(StandardCharsets.UTF_8), "intruder".getBytes(StandardCharsets.UTF_8)))
                    .get(10, TimeUnit.SECONDS);
        }
    }

    /** Every key on {@code jobs}, read with the admin's credentials. */
    private static List<String> keysOnJobs() {
        return keysOn(JOBS);
    }

    /** Every key on {@code topic}, committed or not, read with the admin's credentials. */
    private static List<String> keysOn(final String topic) {
        final Properties settings = kafka.client(ADMIN, ADMIN_PASSWORD);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        final List<String> keys = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    keys.add(record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8));
                }
            }
        }
        return keys;
    }
}
