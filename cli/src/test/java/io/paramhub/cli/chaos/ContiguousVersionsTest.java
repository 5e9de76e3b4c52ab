package io.paramhub.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.ModelShard;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContiguousVersionsTest {

    private static ModelShard version(final long version, final float value, final boolean last) {
        return ModelShard.newBuilder()
                .setJob("j")
                .setShard(0)
                .setShards(1)
                .setFirstParameter(0)
                .setVersion(version)
                .setMinClock(version)
                .setValues(ByteBuffer.allocate(4).putFloat(0, value))
                .setUpdatedAt(Instant.EPOCH)
                .setFinalVersion(last)
                .build();
    }

    @Test
    void shouldPassWhenVersionsRunFromZeroToTheLastWithTheFinalMarkRepeatingIt() {
        // given
        final List<ModelShard> records = List.of(version(0, 0, false), version(1, 1, false), version(1, 1, true));

        // when / then
        assertThat(ContiguousVersions.problem(records, false, 1)).isNull();
    }

    @Test
    void shouldFailWhenABspShardPublishesAVersionTwice() {
        // given
        final List<ModelShard> records = List.of(version(0, 0, false), version(1, 1, false), version(1, 1, false));

        // when / then
        assertThat(ContiguousVersions.problem(records, false, 1)).contains("version 1 where 2 was due");
    }

    @Test
    void shouldPassWhenAnSspShardRepublishesAVersionWithTheSameParameters() {
        // given: version 1 again when minClock moved, then marked final
        final List<ModelShard> records = List.of(
                version(0, 0, false),
                version(1, 1, false),
                version(1, 1, false),
                version(2, 2, false),
                version(2, 2, true));

        // when / then
        assertThat(ContiguousVersions.problem(records, true, -1)).isNull();
    }

    @Test
    void shouldFailWhenAnSspShardRepublishesAVersionWithOtherParametersOrNeverMarksOneFinal() {
        // given
        final List<ModelShard> changed = List.of(version(0, 0, false), version(1, 1, false), version(1, 5, true));
        final List<ModelShard> unfinished = List.of(version(0, 0, false), version(1, 1, false));

        // when / then
        assertThat(ContiguousVersions.problem(changed, true, -1)).contains("published again with other parameters");
        assertThat(ContiguousVersions.problem(unfinished, true, -1)).isEqualTo("no version marked final");
    }
}
