package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.IterationTelemetry;
import io.paramhub.avro.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The dashboard's boards: only of jobs with a valid spec, at most so many, models of the newest only. */
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
    void shouldIgnoreAndCountRecordsOfAJobWithoutAValidSpec() {
        // given one job with a spec
        final JobBoards boards = new JobBoards();
        boards.submit(JobBoardTestRecords.spec("known", T0));

        // when records name it and a job nobody submitted
        final JobBoard known = boards.recordOf("known");
        final JobBoard unknown = boards.recordOf("never-submitted");

        // then the unknown job has no board and its record is counted
        assertThat(known).isNotNull();
        assertThat(unknown).isNull();
        assertThat(boards.all()).extracting(JobBoard::job).containsExactly("known");
        assertThat(boards.ignoredRecords()).isEqualTo(1);
    }

    @Test
    void shouldDropADeletedJobsBoardAndMakeNoNewOneUntilItIsSubmittedAgain() {
        // given
        final JobBoards boards = new JobBoards();
        boards.submit(JobBoardTestRecords.spec("gone", T0));
        boards.submit(JobBoardTestRecords.spec("kept", T0));

        // when
        final JobBoard dropped = boards.delete("gone");

        // then
        assertThat(dropped).isNotNull();
        assertThat(boards.recordOf("gone")).isNull();
        assertThat(boards.all()).extracting(JobBoard::job).containsExactly("kept");
        boards.submit(JobBoardTestRecords.spec("gone", T0 + 1_000));
        assertThat(boards.recordOf("gone")).isNotNull();
    }

    @Test
    void shouldMakeRoomForANewJobByDroppingTheBoardHeardOfLeastRecentlyWhenFull() {
        // given three boards, at most, the middle one heard of last; its data set named by it alone
        final List<String> unused = new ArrayList<>();
        final JobBoards boards = new JobBoards(3, unused::add);
        boards.submit(JobBoardTestRecords.spec("a", T0));
        boards.submit(specOf("b", T0 + 1_000, "linear:n=64,d=3,seed=2"));
        boards.submit(JobBoardTestRecords.spec("c", T0 + 2_000));
        boards.find("a").onTelemetry(JobBoardTestRecords.telemetry("a", T0 + 5_000));

        // when a fourth job is submitted
        boards.submit(JobBoardTestRecords.spec("d", T0 + 3_000));

        // then b, heard of least recently, made room; its data set is unused now
        assertThat(boards.all()).extracting(JobBoard::job).containsExactlyInAnyOrder("a", "c", "d");
        assertThat(boards.size()).isEqualTo(3);
        assertThat(unused).containsExactly("linear:n=64,d=3,seed=2");
    }

    @Test
    void shouldHoldOnlyTheJobsWorkersOnABoard() {
        // given a job of 2 workers
        final JobBoards boards = new JobBoards();
        final JobBoard board = boards.submit(JobBoardTestRecords.spec("j", T0));

        // when telemetry and a command name worker-002, beyond its count
        board.onTelemetry(IterationTelemetry.newBuilder(JobBoardTestRecords.telemetry("j", T0))
                .setWorker("worker-002")
                .build());
        board.onTelemetry(JobBoardTestRecords.telemetry("j", T0));

        // then only worker-000 is on the board
        assertThat(board.ofJob("worker-002")).isFalse();
        assertThat(board.snapshot(null, false, T0).getJsonArray("workers").size())
                .isEqualTo(1);
    }

    private static JobSpec specOf(final String job, final long createdAtMs, final String dataset) {
        return JobSpec.newBuilder(JobBoardTestRecords.spec(job, createdAtMs))
                .setDataset(dataset)
                .build();
    }

    private static void offer(final JobBoards boards, final String job, final long version, final long atMs) {
        if (boards.find(job) == null) {
            boards.submit(JobBoardTestRecords.spec(job, T0));
        }
        if (boards.find(job).onModel(JobBoardTestRecords.model(job, version, atMs))) {
            boards.releaseModelsBeyond(JobBoards.MODELS_HELD);
        }
    }
}
