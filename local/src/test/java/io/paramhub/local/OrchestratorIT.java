package io.paramhub.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ResourceCommand;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.topology.SerdeFactory;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.orchestrator.OrchestratorSettings;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The orchestrator app on a real broker finds the worker that an emulated slowdown makes a straggler. */
@Tag("integration")
class OrchestratorIT extends ClusterTestBase {

    @Test
    void shouldFlagTheSlowWorkerAndGiveItASmallerShare(@TempDir final Path dir) throws InterruptedException {
        // given: every sample costs 300 us, and worker-002 is 3x slower
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("orchestrator").toString());
        final JobSpec spec = LinearJobs.job("orchestrated-linear", 3, 4, 1);
        final Map<Integer, ComputeEmulation> emulation = Map.of(
            0, new ComputeEmulation(1.0, 0, 300), 1, new ComputeEmulation(1.0, 0, 300),
            2, new ComputeEmulation(3.0, 0, 300));

        // when
        try (OrchestratorRunner orchestrator = OrchestratorRunner.start(props, TopicCatalog.DEFAULT_PREFIX,
                 TopicSetup.defaults(), OrchestratorSettings.defaults())) {
            new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX,
                dir.resolve("aggregator")).withEmulation(emulation).run(spec, LinearJobs.problem().data(),
                RunListener.NONE);
            await().alias("a command for the straggler").atMost(Duration.ofSeconds(30))
                .until(() -> !commandsFor("worker-002").isEmpty());
        }

        // then
        final ResourceCommand command = commandsFor("worker-002").get(0);
        assertThat(command.getReason()).contains("worker-002 is a straggler");
        assertThat(command.getBatchShare()).isLessThan(1.0 / 3);
        final Map<String, Double> speeds = command.getSpeeds();
        assertThat(speeds.get("worker-002") / speeds.get("worker-000")).isBetween(0.2, 0.45);
        assertThat(commandsFor("worker-000").get(0).getBatchShare()).isGreaterThan(1.0 / 3);
    }

    private static List<ResourceCommand> commandsFor(final String worker) {
        final TopicCatalog topics = TopicCatalog.create(TopicCatalog.DEFAULT_PREFIX,
            SerdeFactory.forRegistry(registry.url()));
        return TopicContents.readAll(kafka.bootstrapServers(), topics.commands().name(), new StringDeserializer(),
                topics.commands().valueSerde().deserializer()).stream()
            .map(ConsumerRecord::value)
            .filter(command -> worker.equals(command.getWorker()))
            .toList();
    }
}
