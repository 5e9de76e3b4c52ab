package io.paramhub.aggregator;

import io.paramhub.launcher.RegistryWait;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.RetentionCheck;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.aggregator.AggregatorInstance;
import io.paramhub.topology.aggregator.AggregatorMetrics;
import io.paramhub.topology.aggregator.AggregatorTopology;
import io.paramhub.topology.aggregator.LineageHistory;
import io.paramhub.topology.client.SchemaRegistration;
import io.paramhub.topology.placement.PlacementRebalancer;
import io.paramhub.topology.placement.PlacementTaskAssignor;
import io.paramhub.topology.placement.PlacementWatcher;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and runs the aggregator topology: {@code jobs} and {@code gradients} in, {@code model}
 * and {@code dead-letters} out. Checks the topics first and can create the missing ones, refuses to start when one
 * of its topics drifted from what ParamHub needs ({@code TopicCheck}; a warning with {@code --accept-topic-drift}),
 * and when the retention of {@code gradients}, {@code model} or its changelogs is too short to restore from
 * ({@link RetentionCheck}; a warning with {@code --accept-short-retention}).
 *
 * <p>Every instance has an id ({@value AggregatorInstance#INSTANCE_ID_CONFIG}, by default
 * {@link AggregatorInstance#defaultId()}), which it reports in {@code server-telemetry} and carries as a Kafka
 * Streams client tag. With {@value #FOLLOW_PLACEMENT_CONFIG}{@code =true} the instances place shard partitions
 * as the orchestrator's newest {@code placements} record says ({@link PlacementTaskAssignor}, fed by a
 * {@link PlacementWatcher}), and a rebalance starts when a newer placement is read ({@link PlacementRebalancer});
 * without it, Kafka Streams' own assignor places them.
 */
public final class AggregatorRunner implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AggregatorRunner.class);

    public static final String DEFAULT_APPLICATION_ID = "paramhub-aggregator";
    /** Port of the HTTP endpoint when none is given. */
    public static final int DEFAULT_HTTP_PORT = 8090;

    /** Streams setting: follow the orchestrator's placement of shards on instances (default false). */
    public static final String FOLLOW_PLACEMENT_CONFIG = "paramhub.aggregator.placement.follow";

    private final KafkaStreams streams;
    private final String instanceId;
    private final LineageHistory lineage;
    private final PlacementWatcher watcher;

    private AggregatorRunner(
            final KafkaStreams streams,
            final String instanceId,
            final LineageHistory lineage,
            final PlacementWatcher watcher) {
        this.streams = streams;
        this.instanceId = instanceId;
        this.lineage = lineage;
        this.watcher = watcher;
    }

    /**
     * Starts an aggregator. {@code given} holds at least {@code bootstrap.servers} and
     * {@code schema.registry.url}; anything else overrides ParamHub's Streams defaults.
     */
    public static AggregatorRunner start(
            final Properties given, final String topicPrefix, final TopicSetup topicSetup) {
        return start(given, topicPrefix, topicSetup, AggregatorMetrics.unregistered());
    }

    /** As {@link #start(Properties, String, TopicSetup)}, recording into {@code metrics}. */
    public static AggregatorRunner start(
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final AggregatorMetrics metrics) {
        final Properties settings = new Properties();
        settings.putAll(given);
        // a shard task reads four partitions and three are nearly always empty; with the default (0) Kafka
        // Streams formats a trace message for each empty one on every process attempt, a third of the stream
        // thread's CPU in a round (JFR). The engine does not rely on the order of records across them.
        settings.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // refused here, before anything connects, rather than by each shard task as it starts
        AggregatorTopology.snapshotEveryClocks(settings);
        AggregatorTopology.jobMemoryBudget(settings);
        final LineageHistory lineage = LineageHistory.of(settings);
        settings.putIfAbsent(AggregatorInstance.INSTANCE_ID_CONFIG, AggregatorInstance.defaultId());
        final AggregatorInstance instance = AggregatorInstance.from(settings);
        settings.put(StreamsConfig.clientTagPrefix(AggregatorInstance.CLIENT_TAG), instance.id());
        final boolean follow =
                Boolean.parseBoolean(String.valueOf(settings.getOrDefault(FOLLOW_PLACEMENT_CONFIG, "false"))
                        .trim());
        if (follow) {
            PlacementTaskAssignor.checkIntervalMs(settings);
            settings.put(StreamsConfig.TASK_ASSIGNOR_CLASS_CONFIG, PlacementTaskAssignor.class.getName());
        }
        final StreamsAppLauncher.Prepared prepared = StreamsAppLauncher.prepare(
                DEFAULT_APPLICATION_ID,
                settings,
                topicPrefix,
                topicSetup,
                TopicCatalog::aggregatorTopics,
                (provisioner, topics) -> {
                    provisioner.commonPartitionCount(topics.coPartitioned());
                    if (provisioner.commonPartitionCount(topics.control()) != 1) {
                        throw new IllegalStateException("topics " + topics.control() + " must have exactly one "
                                + "partition, so that one task sees a job and all of its workers");
                    }
                });
        try (Admin admin = Admin.create(StreamsAppLauncher.connection(prepared.properties()))) {
            new RetentionCheck(admin)
                    .enforce(
                            prepared.topics(),
                            String.valueOf(prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG)),
                            topicSetup.acceptShortRetention());
        }
        // every topic's value schema, so that a worker in another language finds the subjects it writes to
        // (docs/protocol.md, "Records and encodings"); a no-op where the serdes are set not to register. It also
        // fills the serdes' registry client, so an aggregator restarted while the registry is down waits for it here
        RegistryWait.registerValueSchemas("aggregator", prepared.topics(), prepared.serdes());
        final Topology topology = AggregatorTopology.build(prepared.topics(), prepared.serdes(), metrics, lineage);
        PlacementWatcher watcher = null;
        PlacementRebalancer rebalancer = null;
        if (follow) {
            final PlacementRebalancer clients = new PlacementRebalancer();
            rebalancer = clients;
            watcher = PlacementWatcher.start(
                            prepared.topics().placements(), StreamsAppLauncher.connection(prepared.properties()))
                    .onNewer(placement -> clients.request("placement version " + placement.getVersion()));
            // Streams hands its original settings, objects included, to each assignor it creates
            prepared.properties().put(PlacementTaskAssignor.SOURCE_CONFIG, watcher);
        }
        registerStoreSchemasMeanwhile(prepared);
        try {
            return new AggregatorRunner(
                    StreamsAppLauncher.start(prepared, topology, rebalancer), instance.id(), lineage, watcher);
        } catch (final RuntimeException e) {
            if (watcher != null) {
                watcher.close();
            }
            throw e;
        }
    }

    /**
     * Registers the stores' changelog subjects on a thread of their own while the first rebalance runs: else the
     * first records of the first job wait for the registry, one subject after another. A no-op where the serdes do not
     * register; where it fails, those records register the subjects as before.
     */
    private static void registerStoreSchemasMeanwhile(final StreamsAppLauncher.Prepared prepared) {
        final String applicationId = String.valueOf(prepared.properties().get(StreamsConfig.APPLICATION_ID_CONFIG));
        final Thread registration = new Thread(
                () -> {
                    try {
                        SchemaRegistration.registerStoreSchemas(
                                applicationId, AggregatorTopology.STORE_VALUES, prepared.serdes());
                    } catch (final RuntimeException e) {
                        log.debug("registering the stores' schemas ahead failed; their first records register them", e);
                    }
                },
                "store-schema-registration");
        registration.setDaemon(true);
        registration.start();
    }

    /** This instance's id, as in {@code server-telemetry} and {@code placements}. */
    public String instanceId() {
        return instanceId;
    }

    public KafkaStreams streams() {
        return streams;
    }

    /** The lineage of the shard-0 versions this instance publishes, for {@code GET /jobs/{job}/lineage}. */
    public LineageHistory lineage() {
        return lineage;
    }

    @Override
    public void close() {
        // a deliberate stop leaves the group, so that the shards move to the other instances at once
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        if (watcher != null) {
            watcher.close();
        }
    }
}
