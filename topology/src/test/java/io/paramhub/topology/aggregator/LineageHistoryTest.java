package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.paramhub.avro.OffsetRange;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class LineageHistoryTest {

    private static final String JOB = "job-h";

    private final Object owner = new Object();

    /** Version v adds offsets [10 (v - 1), 10 v) of partition v mod 2, as one clock of a topic-mode job. */
    private static List<OffsetRange> added(final long version) {
        return List.of(new OffsetRange((int) (version % 2), 10 * (version - 1), 10 * version));
    }

    /** The lineage of version v as published: every version's ranges up to v. */
    private static ExampleLineage lineageOf(final long version) {
        final ExampleLineage lineage = ExampleLineage.empty();
        for (long v = 1; v <= version; v++) {
            lineage.add(added(v));
        }
        return lineage;
    }

    /** Publishes versions 0 to {@code latest} as shard 0 does. */
    private void publish(final LineageHistory history, final long latest) {
        final ExampleLineage lineage = ExampleLineage.empty();
        history.published(JOB, owner, 0, List.of(), lineage);
        for (long version = 1; version <= latest; version++) {
            lineage.add(added(version));
            history.published(JOB, owner, version, added(version), lineage);
        }
    }

    @Test
    void shouldRebuildEveryKeptVersionFromItsBlockAndChanges() {
        // given: blocks of 4 versions, 100 kept
        final LineageHistory history = new LineageHistory(100, 4);

        // when
        publish(history, 30);

        // then
        for (long version = 0; version <= 30; version++) {
            assertThat(history.at(JOB, version))
                    .as("version %d", version)
                    .isEqualTo(new LineageHistory.Lookup.Found(version, lineageOf(version)));
        }
        assertThat(history.at(JOB, -1)).isEqualTo(new LineageHistory.Lookup.Found(30, lineageOf(30)));
    }

    @Test
    void shouldKeepAtLeastTheNewestVersionsAndDropOlderBlocks() {
        // given: 10 versions kept, in blocks of 4
        final LineageHistory history = new LineageHistory(10, 4);

        // when
        publish(history, 41);

        // then: versions 32 to 41 (and the rest of their oldest block) are kept; older ones and later ones are not
        final LineageHistory.Lookup oldest = history.at(JOB, 0);
        assertThat(oldest).isInstanceOf(LineageHistory.Lookup.NotKept.class);
        final LineageHistory.Lookup.NotKept notKept = (LineageHistory.Lookup.NotKept) oldest;
        assertThat(notKept.latest()).isEqualTo(41);
        assertThat(notKept.oldest()).isBetween(41L - 10 - 4 + 1, 41L - 10 + 1);
        assertThat(history.at(JOB, 32)).isEqualTo(new LineageHistory.Lookup.Found(32, lineageOf(32)));
        assertThat(history.at(JOB, 42)).isEqualTo(notKept);
    }

    @Test
    void shouldStartAgainWhenAResubmittedJobPublishesVersionZero() {
        // given
        final LineageHistory history = new LineageHistory(100, 4);
        publish(history, 9);

        // when
        history.published(JOB, owner, 0, List.of(), ExampleLineage.empty());

        // then
        assertThat(history.at(JOB, -1)).isEqualTo(new LineageHistory.Lookup.Found(0, ExampleLineage.empty()));
        assertThat(history.at(JOB, 5)).isEqualTo(new LineageHistory.Lookup.NotKept(0, 0));
    }

    @Test
    void shouldStartAtTheRestoredVersionAndFollowTheNextOnes() {
        // given: a shard restored at version 7 on this instance
        final LineageHistory history = new LineageHistory(100, 4);
        history.restart(JOB, owner, 7, lineageOf(7));

        // when
        final ExampleLineage lineage = lineageOf(7);
        lineage.add(added(8));
        history.published(JOB, owner, 8, added(8), lineage);

        // then
        assertThat(history.at(JOB, 6)).isEqualTo(new LineageHistory.Lookup.NotKept(7, 8));
        assertThat(history.at(JOB, 7)).isEqualTo(new LineageHistory.Lookup.Found(7, lineageOf(7)));
        assertThat(history.at(JOB, 8)).isEqualTo(new LineageHistory.Lookup.Found(8, lineageOf(8)));
    }

    @Test
    void shouldIgnoreAVersionRepublishedWithNothingAdded() {
        // given: SSP republishes a version when minClock moves
        final LineageHistory history = new LineageHistory(100, 4);
        publish(history, 3);

        // when
        history.published(JOB, owner, 3, List.of(), lineageOf(3));

        // then
        assertThat(history.at(JOB, -1)).isEqualTo(new LineageHistory.Lookup.Found(3, lineageOf(3)));
        assertThat(history.at(JOB, 2)).isEqualTo(new LineageHistory.Lookup.Found(2, lineageOf(2)));
    }

    @Test
    void shouldForgetTheJobsOfAReleasedOwnerOnly() {
        // given
        final LineageHistory history = new LineageHistory(100, 4);
        publish(history, 2);
        history.restart("other", new Object(), 0, ExampleLineage.empty());

        // when: the task holding JOB closes
        history.release(owner);

        // then
        assertThat(history.at(JOB, -1)).isEqualTo(new LineageHistory.Lookup.Unknown());
        assertThat(history.at("other", -1)).isInstanceOf(LineageHistory.Lookup.Found.class);
    }

    @Test
    void shouldKeepTheVersionsTheSettingSaysAndRefuseOthersNamingIt() {
        // given
        final LineageHistory history = LineageHistory.of(Map.of(LineageHistory.VERSIONS_CONFIG, " 3 "));

        // when
        publish(history, 20);

        // then: blocks of at most 3 versions, at least the newest 3 kept, the ones before them not
        assertThat(history.at(JOB, 18)).isEqualTo(new LineageHistory.Lookup.Found(18, lineageOf(18)));
        assertThat(history.at(JOB, 14)).isInstanceOf(LineageHistory.Lookup.NotKept.class);
        for (final String value : new String[] {"0", "-1", "lots", "1.5"}) {
            assertThatThrownBy(() -> LineageHistory.of(Map.of(LineageHistory.VERSIONS_CONFIG, value)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(LineageHistory.VERSIONS_CONFIG);
        }
    }
}
