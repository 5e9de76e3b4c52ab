package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The short form of {@code paramhub chaos}: three faults of a seeded schedule on a cluster of processes (three
 * brokers, a registry, two aggregators, an orchestrator, and two workers each of a BSP, an SSP and a staged job,
 * sized with 10 clocks a fault) and two rounds of a hostile tenant's ten forgeries at the BSP job, every invariant
 * checked per job on the topics (the tenant's dead letters counted against its twenty records); then the written
 * schedule reads back the same faults. About 2.5 minutes on two cores.
 */
@Tag("integration")
class ChaosIT {

    private static final List<String> INVARIANTS = List.of(
            "all-faults-injected-and-healed",
            "model-bit-identical[chaos-bsp]",
            "model-bit-identical[chaos-staged]",
            "shard-versions-contiguous[chaos-bsp]",
            "shard-versions-contiguous[chaos-ssp]",
            "shard-versions-contiguous[chaos-staged]",
            "ssp-staleness[chaos-ssp]",
            "schema-ids-unique",
            "only-expected-dead-letters",
            "job-within-deadline[chaos-bsp]",
            "job-within-deadline[chaos-ssp]",
            "job-within-deadline[chaos-staged]",
            "no-app-shut-down");

    @Test
    void shouldKeepEveryInvariantWhenThreeSeededFaultsHitABspJob() throws Exception {
        // given: seed 36 draws an aggregator kill, a worker kill and a broker kill; the logs stay in target/
        final Path dir = Files.createDirectories(Path.of("target", "chaos-it"));
        final String[] args = {
            "chaos", "--seed", "36", "--faults", "3", "--clocks-per-fault", "10", "--dir", dir.toString(), "--port", "0"
        };

        // when
        final CliRun run = CliRun.of(args);

        // then (the run's own output kept beside its logs)
        Files.writeString(dir.resolve("last-output.txt"), run.out() + run.err());
        final List<String> lines = run.out().lines().toList();
        assertThat(run.code()).as(run.out() + run.err()).isZero();
        final JsonNode summary = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertThat(summary.get("passed").asBoolean()).isTrue();
        assertThat(summary.get("injected").asInt()).isEqualTo(3);
        assertThat(summary.get("invariants").size()).isEqualTo(INVARIANTS.size());
        for (final String invariant : INVARIANTS) {
            assertThat(summary.get("invariants").get(invariant).get("pass").asBoolean())
                    .as(invariant + ": " + summary.get("invariants").get(invariant))
                    .isTrue();
        }
        assertThat(summary.get("invariants")
                        .get("only-expected-dead-letters")
                        .get("detail")
                        .asText())
                .contains("of the hostile tenant's 20 forged records");
        try (Stream<Path> runs = Files.list(dir)) {
            final Path schedule =
                    runs.max(Comparator.naturalOrder()).orElseThrow().resolve("schedule.json");
            assertThat(Files.readString(schedule))
                    .contains("\"seed\" : 36", "AGGREGATOR_KILL", "WORKER_KILL", "BROKER_KILL");
        }
    }
}
