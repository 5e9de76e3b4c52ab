package io.paramhub.topology.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import java.util.Objects;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class MemoryAdmissionTest {

    /** linearJob(name, 1): 16 bytes of parameters, 16 buffered, 48 in the stores. */
    private static final long ONE_JOB = 80;

    @Test
    void shouldRefuseAJobThatFitsAloneWhenTheLiveJobsLeaveTooLittleOfTheBudget() {
        // given a budget of two and a half jobs and two live jobs
        try (AggregatorTestBed bed = new AggregatorTestBed(budget(ONE_JOB * 5 / 2))) {
            bed.submit(AggregatorTestBed.linearJob("first", 1));
            bed.submit(AggregatorTestBed.linearJob("second", 1));

            // when a third comes
            bed.submit(AggregatorTestBed.linearJob("third", 1));

            // then it alone is dead-lettered, with its estimate, the others' and the budget
            assertThat(JobMemory.of(AggregatorTestBed.linearJob("third", 1)).total())
                    .isEqualTo(ONE_JOB);
            assertThat(bed.deadLetters.readValuesToList()).singleElement().satisfies(letter -> {
                assertThat(letter.getReason()).isEqualTo(DeadLetterReason.INVALID_JOB);
                assertThat(letter.getError())
                        .isEqualTo("invalid job third: estimated memory 0.0 MiB (80 bytes) + 0.0 MiB (160 bytes) "
                                + "of the 2 live jobs already admitted > budget 0.0 MiB (200 bytes) "
                                + "(paramhub.aggregator.job.memory.budget.bytes, across live jobs): "
                                + "delete a finished job or raise the budget");
            });
            assertThat(bed.model.readValuesToList())
                    .extracting(ModelShard::getJob)
                    .doesNotContain("third");
        }
    }

    @Test
    void shouldAdmitTheJobOnceALiveJobIsDeleted() {
        // given a budget of two jobs, both taken, and a third refused
        try (AggregatorTestBed bed = new AggregatorTestBed(budget(2 * ONE_JOB))) {
            bed.submit(AggregatorTestBed.linearJob("first", 1));
            bed.submit(AggregatorTestBed.linearJob("second", 1));
            bed.submit(AggregatorTestBed.linearJob("third", 1));
            assertThat(bed.deadLetters.readValuesToList()).hasSize(1);
            bed.model.readValuesToList();

            // when the first is deleted and the third submitted again
            bed.jobs.pipeInput("first", null);
            bed.submit(AggregatorTestBed.linearJob("third", 1));

            // then the third starts: version 0 of both its shards (after the first's tombstones)
            assertThat(bed.deadLetters.isEmpty()).isTrue();
            assertThat(bed.model.readValuesToList())
                    .filteredOn(Objects::nonNull)
                    .extracting(ModelShard::getJob)
                    .containsExactly("third", "third");
        }
    }

    @Test
    void shouldNotCountAJobAgainstItselfWhenItIsSubmittedAgain() {
        // given a budget of exactly two jobs, both live
        try (AggregatorTestBed bed = new AggregatorTestBed(budget(2 * ONE_JOB))) {
            bed.submit(AggregatorTestBed.linearJob("first", 1));
            bed.submit(AggregatorTestBed.linearJob("second", 1));

            // when the second is submitted again
            final JobSpec again = AggregatorTestBed.linearJob("second", 1);
            bed.submit(again);

            // then it is admitted, not counted twice
            assertThat(bed.deadLetters.isEmpty()).isTrue();
        }
    }

    private static Properties budget(final long bytes) {
        final Properties settings = new Properties();
        settings.put(AggregatorTopology.JOB_MEMORY_BUDGET_CONFIG, String.valueOf(bytes));
        return settings;
    }
}
