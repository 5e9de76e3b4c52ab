package io.paramhub.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.paramhub.avro.ServerTelemetry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerRoundsTest {

    @Test
    void shouldFindTheMoveAndTheMeanRoundBeforeAndAfterIt() {
        // given 2 partitions; versions 0-19 every 100 ms with partition 1 on "slow"; from version 20 on, every
        // 50 ms with partition 1 on "fast"
        final List<ServerTelemetry> rounds = new ArrayList<>();
        long at = 0;
        for (long version = 0; version < 40; version++) {
            at += version < 20 ? 100 : 50;
            rounds.add(round("fast", 0, version, at));
            rounds.add(round(version < 20 ? "slow" : "fast", 1, version, at - 1));
        }

        // when
        final ServerRounds summary = ServerRounds.of(rounds, List.of());

        // then
        assertThat(summary.moves()).isEqualTo(1);
        assertThat(summary.firstMove()).isEqualTo(20);
        assertThat(summary.owners().get(1)).containsEntry(0L, "slow").containsEntry(20L, "fast");
        assertThat(summary.owners().get(0)).containsOnlyKeys(0L);
        assertThat(summary.roundMsBefore()).isCloseTo(100.0, within(1e-9));
        assertThat(summary.roundMsAfter()).isCloseTo(50.0, within(1e-9));
    }

    @Test
    void shouldCostAMoveByItsHandoverAndTheRoundsItLost() {
        // given versions 0-19 every 100 ms with partition 1 on "slow"; version 20, its first on "fast", 400 ms
        // after 19 (the restore); then every 50 ms
        final List<ServerTelemetry> rounds = new ArrayList<>();
        long at = 0;
        for (long version = 0; version < 40; version++) {
            at += version < 20 ? 100 : version == 20 ? 400 : 50;
            rounds.add(round("fast", 0, version, at));
            rounds.add(round(version < 20 ? "slow" : "fast", 1, version, at - 1));
        }

        // when
        final ServerRounds summary = ServerRounds.of(rounds, List.of());

        // then the handover took 400 ms, 300 more than a round before; the rounds 20-25 took 650 ms, 350 more
        // than six rounds at the 50 ms pace after the move: 7 rounds lost
        assertThat(summary.moveList()).hasSize(1);
        final MoveCosts.Move move = summary.moveList().get(0);
        assertThat(move.partition()).isEqualTo(1);
        assertThat(move.from()).isEqualTo("slow");
        assertThat(move.to()).isEqualTo("fast");
        assertThat(move.version()).isEqualTo(20);
        assertThat(move.handoverMs()).isCloseTo(400.0, within(1e-9));
        assertThat(move.restoreMs()).isCloseTo(300.0, within(1e-9));
        assertThat(summary.stalls()).hasSize(1);
        assertThat(summary.stalls().get(0).lostMs()).isCloseTo(350.0, within(1e-9));
        assertThat(summary.roundsLost()).isCloseTo(7.0, within(1e-9));
    }

    @Test
    void shouldHaveNoRoundAfterAMoveThatNeverHappened() {
        // given
        final List<ServerTelemetry> rounds = new ArrayList<>();
        for (long version = 0; version < 10; version++) {
            rounds.add(round("a", 0, version, 100 * version));
        }

        // when
        final ServerRounds summary = ServerRounds.of(rounds, List.of());

        // then
        assertThat(summary.moves()).isZero();
        assertThat(summary.moveList()).isEmpty();
        assertThat(summary.roundsLost()).isZero();
        assertThat(summary.roundMsBefore()).isCloseTo(100.0, within(1e-9));
        assertThat(summary.roundMsAfter()).isNaN();
    }

    private static ServerTelemetry round(
            final String instance, final int partition, final long version, final long at) {
        return ServerTelemetry.newBuilder()
                .setInstance(instance)
                .setJob("job")
                .setShard(partition)
                .setPartition(partition)
                .setVersion(version)
                .setBusyMs(1)
                .setRoundMs(1)
                .setTimestamp(Instant.ofEpochMilli(at))
                .build();
    }
}
