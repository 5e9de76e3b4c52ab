package io.paramhub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.topology.client.JobStatus;
import io.paramhub.topology.client.JobStatus.Member;
import io.paramhub.topology.client.JobStatus.Plan;
import io.paramhub.topology.client.JobStatus.State;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Tests how {@code jobs list} and {@code jobs status} print a job. */
class JobStatusTextTest {

    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    @Test
    void shouldPrintOneAlignedLineAJobUnderAHeader() {
        // given
        final JobStatus training = status("mlp", State.TRAINING, List.of(12L, 12L), 12, 2340);
        final JobStatus waiting = status("linear-long-name", State.NO_MODEL, List.of(-1L, -1L), -1, -1);

        // when
        final List<String> lines = JobStatusText.table(List.of(training, waiting));

        // then
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("JOB               MODEL").endsWith("STATE");
        assertThat(lines.get(1))
                .startsWith("mlp               linear")
                .contains("1/2", "BSP", " 12 ", "12/2340")
                .endsWith("training");
        assertThat(lines.get(2)).contains(" - ").endsWith("no model yet");
        assertThat(lines.get(1).indexOf("BSP")).isEqualTo(lines.get(2).indexOf("BSP"));
    }

    @Test
    void shouldSaySoWhenThereIsNoJob() {
        // when
        final List<String> lines = JobStatusText.table(List.of());

        // then
        assertThat(lines).containsExactly("no jobs");
    }

    @Test
    void shouldShowVersionsPerShardOnlyWhenTheyDiffer() {
        // given
        final JobStatus even = status("mlp", State.TRAINING, List.of(12L, 12L), 12, -1);
        final JobStatus uneven = status("mlp", State.TRAINING, List.of(13L, 12L), 12, -1);

        // when
        final String evenVersion = line(JobStatusText.status(even, NOW), "  version");
        final String unevenVersion = line(JobStatusText.status(uneven, NOW), "  version");

        // then
        assertThat(evenVersion).isEqualTo("  version  12, written 1.5 s ago");
        assertThat(unevenVersion).isEqualTo("  version  12 (per shard: 13 12), written 1.5 s ago");
    }

    @Test
    void shouldShowWorkersPlanStragglersAndDeadLetters() {
        // given
        final JobStatus job = status("mlp", State.TRAINING, List.of(12L, 12L), 12, 2340);

        // when
        final List<String> lines = JobStatusText.status(job, NOW);

        // then
        assertThat(lines.get(0)).isEqualTo("job mlp: training");
        assertThat(line(lines, "  clock"))
                .startsWith("  clock    12 of 2340")
                .endsWith("per worker: worker-000 13, worker-001 12");
        assertThat(line(lines, "  workers"))
                .isEqualTo("  workers  1 live of 2 expected: worker-000 HEARTBEAT at clock 13, "
                        + "worker-001 LEFT at clock 12 (not live, seen 4.0 s ago)");
        assertThat(line(lines, "  plan"))
                .isEqualTo("  plan     3 (version in force: 2): worker-000 0.600 x 2 threads, "
                        + "worker-001 0.400 x 1 thread");
        assertThat(line(lines, "  stragglers")).startsWith("  stragglers worker-001 (worker-001 is a straggler");
        assertThat(line(lines, "  dead letters")).isEqualTo("  dead letters 3 (STALE 3)");
    }

    @Test
    void shouldWriteInstantsAsIsoStringsInJson() {
        // given
        final JobStatus job = status("mlp", State.TRAINING, List.of(12L, 12L), 12, 2340);

        // when
        final String json = JobStatusText.json(job);

        // then
        assertThat(json).contains("\"updatedAt\" : \"2025-01-01T11:59:58.500Z\"", "\"state\" : \"TRAINING\"");
    }

    private static String line(final List<String> lines, final String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    private static JobStatus status(
            final String name, final State state, final List<Long> versions, final long minClock, final long total) {
        final TreeMap<String, Long> clocks = new TreeMap<>();
        clocks.put("worker-000", 13L);
        clocks.put("worker-001", 12L);
        final TreeMap<String, Double> shares = new TreeMap<>();
        shares.put("worker-000", 0.6);
        shares.put("worker-001", 0.4);
        final TreeMap<String, Integer> threads = new TreeMap<>();
        threads.put("worker-000", 2);
        threads.put("worker-001", 1);
        final TreeMap<String, Long> letters = new TreeMap<>();
        letters.put("STALE", 3L);
        return new JobStatus(
                name,
                "linear",
                "linear:n=4096",
                2,
                "BSP",
                versions.size(),
                state,
                versions,
                minClock,
                total,
                minClock < 0 ? Collections.emptySortedMap() : clocks,
                List.of(
                        new Member("worker-000", "HEARTBEAT", 13, NOW.minusSeconds(1), true),
                        new Member("worker-001", "LEFT", 12, NOW.minusSeconds(4), false)),
                new Plan(
                        3,
                        "worker-001 is a straggler: 100 samples/s vs median 300",
                        List.of("worker-001"),
                        shares,
                        threads,
                        2),
                letters,
                -1,
                minClock < 0 ? null : NOW.minusMillis(1500));
    }
}
