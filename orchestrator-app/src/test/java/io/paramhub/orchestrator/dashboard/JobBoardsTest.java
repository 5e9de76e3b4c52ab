package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The dashboard's boards hold the models of the jobs heard of most recently only. */
class JobBoardsTest {

    private static final long T0 = 1_700_000_000_000L;

    @Test
    void shouldHoldOnlyTheNewestJobsModelsAndKeepTheOthersVersions() {
        // given: ten jobs whose models were published one second apart, job-0 first
        final JobBoards boards = new JobBoards();

        // when: the feed reads them as it does, releasing beyond the limit when a board starts holding
        IntStream.range(0, 10).forEach(job -> offer(boards, "job-" + job, job + 1, T0 + job * 1_000L));

        // then: the eight newest hold their models, the two oldest only their figures
        assertThat(IntStream.range(0, 10)
                        .filter(job -> boards.find("job-" + job).holdsModel()))
                .containsExactly(2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(boards.find("job-0")
                        .snapshot(null, false, T0)
                        .getJsonObject("model")
                        .getLong("version"))
                .isEqualTo(1);
        assertThat(boards.find("job-1")
                        .snapshot(null, false, T0)
                        .getJsonObject("model")
                        .getLong("version"))
                .isEqualTo(2);
    }

    @Test
    void shouldHoldAReleasedJobsModelAgainWhenItPublishesOnceMore() {
        // given
        final JobBoards boards = new JobBoards();
        IntStream.range(0, 9).forEach(job -> offer(boards, "job-" + job, 1, T0 + job * 1_000L));
        assertThat(boards.find("job-0").holdsModel()).isFalse();

        // when: job-0 publishes a new version, newer than every other record
        offer(boards, "job-0", 2, T0 + 60_000L);

        // then: it holds that model, and the now least recent job lets go of its own
        assertThat(boards.find("job-0").holdsModel()).isTrue();
        assertThat(boards.find("job-0")
                        .snapshot(null, false, T0)
                        .getJsonObject("model")
                        .getLong("version"))
                .isEqualTo(2);
        assertThat(boards.find("job-1").holdsModel()).isFalse();
        assertThat(boards.all().stream().filter(JobBoard::holdsModel)).hasSize(JobBoards.MODELS_HELD);
    }

    @Test
    void shouldDropADeletedJobsBoardAndMakeNoNewOneUntilItIsSubmittedAgain() {
        // given
        final JobBoards boards = new JobBoards();
        boards.board("gone").onTelemetry(JobBoardTestRecords.telemetry("gone", 1_000));
        boards.board("kept").onTelemetry(JobBoardTestRecords.telemetry("kept", 1_000));

        // when
        final JobBoard dropped = boards.delete("gone");
        boards.board("gone").onTelemetry(JobBoardTestRecords.telemetry("gone", 2_000));

        // then
        assertThat(dropped).isNotNull();
        assertThat(boards.find("gone")).isNull();
        assertThat(boards.all()).extracting(JobBoard::job).containsExactly("kept");
        boards.submitted("gone");
        boards.board("gone").onTelemetry(JobBoardTestRecords.telemetry("gone", 3_000));
        assertThat(boards.find("gone")).isNotNull();
    }

    private static void offer(final JobBoards boards, final String job, final long version, final long atMs) {
        if (boards.board(job).onModel(JobBoardTestRecords.model(job, version, atMs))) {
            boards.releaseModelsBeyond(JobBoards.MODELS_HELD);
        }
    }
}
