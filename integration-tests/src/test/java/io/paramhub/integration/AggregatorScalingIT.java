package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.LinearProblem;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.StreamsProperties;
import io.paramhub.topology.TopicCatalog;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregator instance added mid-run takes over some shards with their state, and the first one
 * stopped later hands all of them over; no update is lost or repeated: the BSP model is bit-identical.
 */
@Tag("integration")
class AggregatorScalingIT extends ClusterTestBase {

    private static final long ADD_AT_CLOCK = 40;
    private static final long REMOVE_AT_CLOCK = 100;

    @Test
    void shouldKeepTheModelBitIdenticalWhenInstancesJoinAndLeaveMidRun(@TempDir final Path dir) throws Exception {
        // given
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec spec = LinearJobs.job("scaling-linear", 3, 4, 5);
        final CountDownLatch reachedAdd = new CountDownLatch(1);
        final CountDownLatch reachedRemove = new CountDownLatch(1);
        final RunListener watch = new RunListener() {
            @Override
            public void onIteration(final IterationTelemetry telemetry) {
                if (telemetry.getClock() >= ADD_AT_CLOCK) {
                    reachedAdd.countDown();
                }
                if (telemetry.getClock() >= REMOVE_AT_CLOCK) {
                    reachedRemove.countDown();
                }
            }
        };
        final AggregatorRunner first =
                AggregatorRunner.start(props(dir.resolve("first")), TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());

        // when
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(
                                kafka.bootstrapServers(),
                                registry.url(),
                                TopicCatalog.DEFAULT_PREFIX,
                                dir.resolve("unused"))
                        .withAggregators(0)
                        .run(spec, problem.data(), watch);
            } catch (final InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(reachedAdd.await(120, TimeUnit.SECONDS)).isTrue();
        final AggregatorRunner second = AggregatorRunner.start(
                props(dir.resolve("second")), TopicCatalog.DEFAULT_PREFIX, TopicSetup.defaults());
        assertThat(reachedRemove.await(120, TimeUnit.SECONDS)).isTrue();
        first.close();
        final TrainingRun.Result result;
        try {
            result = run.get(180, TimeUnit.SECONDS);
        } finally {
            second.close();
        }

        // then
        assertThat(result.finalParameters()).containsExactly(LinearJobs.bspReference(spec, problem));
    }

    private static Properties props(final Path stateDir) {
        final Properties props = new Properties();
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsProperties.SCHEMA_REGISTRY_URL, registry.url());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }
}
