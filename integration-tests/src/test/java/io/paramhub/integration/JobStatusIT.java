package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.LearningRateScheduleKind;
import io.paramhub.embedded.RunListener;
import io.paramhub.embedded.TrainingRun;
import io.paramhub.ml.BatchPlan;
import io.paramhub.ml.LinearProblem;
import io.paramhub.testing.ClusterTestBase;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.worker.ComputeEmulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paramhub jobs status} and {@code jobs list} on a real broker, in-process through {@link CliRun}, while a job
 * trains and after it is done: read from the topics alone.
 */
@Tag("integration")
class JobStatusIT extends ClusterTestBase {

    private static final Pattern VERSION = Pattern.compile("(?m)^  version  (\\d+)");

    @Test
    void shouldShowTheVersionAdvancingWhileAJobTrainsAndDoneAfter(@TempDir final Path dir) throws Exception {
        // given: 2 workers, 2 shards, a cosine job of 3 epochs (96 clocks) whose clocks cost over 32 ms (0.5 ms a
        // sample)
        final LinearProblem problem = LinearJobs.problem();
        final JobSpec linear = LinearJobs.job("watched", 2, 2, 3);
        final long clocks =
                3L * new BatchPlan(problem.data().train().size(), 128, linear.getSeed()).iterationsPerEpoch();
        final JobSpec spec = JobSpec.newBuilder(linear)
                .setLearningRateSchedule(LearningRateScheduleKind.COSINE)
                .setDecayClocks(clocks)
                .build();
        final ComputeEmulation costly = new ComputeEmulation(1.0, 0, 500);
        final CompletableFuture<TrainingRun.Result> run = CompletableFuture.supplyAsync(() -> {
            try {
                return new TrainingRun(kafka.bootstrapServers(), registry.url(), TopicCatalog.DEFAULT_PREFIX, dir)
                        .withEmulation(Map.of(0, costly, 1, costly))
                        .run(spec, problem.data(), RunListener.NONE);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });

        // when
        final long first = await().alias("a first model version")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> version(status("watched")), version -> version >= 1);
        // another run of the command, reading the topics afresh, until it shows a later version (a clock takes
        // some 30 ms, but a busy machine can hold training for longer than one run of the command)
        final CliRun training = await().alias("a later model version")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> status("watched"), later -> version(later) > first);
        final long second = version(training);
        final CliRun list = CliRun.of(
                "jobs", "list", "--bootstrap-servers", kafka.bootstrapServers(), "--registry-url", registry.url());
        final CliRun watch = status("watched", "--watch", "--interval", "0.3", "--count", "2");
        final CliRun unknown = status("nope");
        final TrainingRun.Result result = run.get(60, TimeUnit.SECONDS);
        final CliRun done = status("watched");

        // then: the version advanced between two runs of the command, each reading the topics afresh
        assertThat(training.code()).as(training.err()).isZero();
        assertThat(second).as(training.out()).isGreaterThan(first);
        assertThat(training.out())
                .startsWith("job watched: training")
                .contains("linear on " + LinearJobs.DATASET + ", 2 workers, BSP, 2 shards")
                .containsPattern("clock    \\d+ of " + clocks)
                .contains("workers  2 live of 2 expected: worker-000 ", "worker-001 ")
                .contains("dead letters none");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out())
                .containsPattern("(?m)^watched +linear +" + Pattern.quote(LinearJobs.DATASET)
                        + " +2/2 +BSP +\\d+ +\\d+/" + clocks + " +training$");
        assertThat(watch.code()).as(watch.err()).isZero();
        assertThat(watch.out().split("(?m)^-- ", -1)).hasSize(3);
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err()).contains("no job 'nope'", "watched");
        assertThat(result.job().iterations()).isEqualTo(clocks);
        assertThat(done.out()).startsWith("job watched: done").contains("version  " + clocks);
    }

    private static CliRun status(final String job, final String... options) {
        final List<String> args = new ArrayList<>(List.of(
                "jobs",
                "status",
                job,
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--registry-url",
                registry.url()));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static long version(final CliRun run) {
        final Matcher version = VERSION.matcher(run.out());
        return version.find() ? Long.parseLong(version.group(1)) : -1;
    }
}
