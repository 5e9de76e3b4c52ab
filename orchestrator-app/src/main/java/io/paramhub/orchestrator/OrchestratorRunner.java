package io.paramhub.orchestrator;

import io.paramhub.launcher.RegistryWait;
import io.paramhub.launcher.StreamsAppLauncher;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.orchestrator.OrchestratorMetrics;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import io.paramhub.topology.placement.PlacementSettings;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Builds and runs the orchestrator topology: {@code telemetry} (and {@code jobs}, for the worker
 * count) in, {@code commands} out.
 */
public final class OrchestratorRunner implements AutoCloseable {

    public static final String DEFAULT_APPLICATION_ID = "paramhub-orchestrator";
    /** Port of the HTTP endpoint when none is given. */
    public static final int DEFAULT_HTTP_PORT = 8091;

    private final KafkaStreams streams;
    private final StreamsAppLauncher.Prepared prepared;
    private final OrchestratorSettings settings;

    private OrchestratorRunner(
            final KafkaStreams streams,
            final StreamsAppLauncher.Prepared prepared,
            final OrchestratorSettings settings) {
        this.streams = streams;
        this.prepared = prepared;
        this.settings = settings;
    }

    /**
     * Starts an orchestrator. {@code given} holds at least {@code bootstrap.servers} and
     * {@code schema.registry.url}; anything else overrides ParamHub's Streams defaults.
     */
    public static OrchestratorRunner start(
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final OrchestratorSettings settings) {
        return start(given, topicPrefix, topicSetup, settings, OrchestratorMetrics.unregistered());
    }

    /** As {@link #start(Properties, String, TopicSetup, OrchestratorSettings)}, counting commands in {@code metrics}. */
    public static OrchestratorRunner start(
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final OrchestratorSettings settings,
            final OrchestratorMetrics metrics) {
        return start(
                given,
                topicPrefix,
                topicSetup,
                settings,
                settings.issuesCommands()
                        ? PlacementSettings.defaults()
                        : PlacementSettings.defaults().observeOnly(),
                metrics);
    }

    /** As the five-argument {@code start}, placing shards on aggregator instances with {@code placement}. */
    public static OrchestratorRunner start(
            final Properties given,
            final String topicPrefix,
            final TopicSetup topicSetup,
            final OrchestratorSettings settings,
            final PlacementSettings placement,
            final OrchestratorMetrics metrics) {
        final StreamsAppLauncher.Prepared prepared = StreamsAppLauncher.prepare(
                DEFAULT_APPLICATION_ID,
                given,
                topicPrefix,
                topicSetup,
                TopicCatalog::orchestratorTopics,
                (provisioner, topics) -> provisioner.commonPartitionCount(
                        List.of(topics.telemetry().name())));
        // fills the serdes' registry client: a restarted orchestrator waits here for a registry that is down, rather
        // than its global jobs store failing on the first record it cannot decode
        RegistryWait.registerValueSchemas("orchestrator", prepared.topics(), prepared.serdes());
        return new OrchestratorRunner(
                StreamsAppLauncher.start(
                        prepared,
                        OrchestratorTopology.build(prepared.topics(), prepared.serdes(), settings, placement, metrics)),
                prepared,
                settings);
    }

    public KafkaStreams streams() {
        return streams;
    }

    /** The topics it reads and writes, with the serdes of its schema registry. */
    public TopicCatalog topics() {
        return prepared.topics();
    }

    /** What a plain client of its cluster needs: bootstrap servers and security settings. */
    public Properties connection() {
        return StreamsAppLauncher.connection(prepared.properties());
    }

    public OrchestratorSettings settings() {
        return settings;
    }

    @Override
    public void close() {
        streams.close(CloseOptions.timeout(Duration.ofSeconds(30))
                .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    }
}
