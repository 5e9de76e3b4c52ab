package io.paramhub.orchestrator.dashboard;

import io.paramhub.avro.JobSpec;
import io.vertx.core.json.JsonArray;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Every job's {@link JobBoard}, by job name: a board is made only for a job whose valid spec ({@code
 * JobSpecs.problems} empty) was read on {@code jobs}, and dropped by the job's tombstone. A record of
 * {@code telemetry}, {@code commands} or {@code model} naming any other job is ignored and counted
 * ({@link #ignoredRecords}), never stored, so no topic a client can write makes the dashboard hold more than
 * {@code maxJobs} boards; past that, a new job's board takes the place of the one heard of least recently. Only the
 * {@link #MODELS_HELD} jobs heard of most recently hold their model's parameters: the others keep curves and
 * figures. Written by the feed's thread alone.
 */
final class JobBoards {

    /** How many jobs' models the dashboard holds at most. */
    static final int MODELS_HELD = 8;
    /** How many jobs' boards the dashboard holds when not told otherwise. */
    static final int DEFAULT_MAX_JOBS = 1_000;

    private final int maxJobs;
    private final Consumer<String> datasetUnused;
    private final ConcurrentMap<String, JobBoard> boards = new ConcurrentHashMap<>();
    private final AtomicLong ignored = new AtomicLong();

    /** At most {@link #DEFAULT_MAX_JOBS} boards; data sets no board names any more are not told of. */
    JobBoards() {
        this(DEFAULT_MAX_JOBS, dataset -> {});
    }

    /**
     * At most {@code maxJobs} boards; {@code datasetUnused} hears of each data set no board names any more, once a
     * board naming it is dropped.
     */
    JobBoards(final int maxJobs, final Consumer<String> datasetUnused) {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("maxJobs must be at least 1, not " + maxJobs);
        }
        this.maxJobs = maxJobs;
        this.datasetUnused = datasetUnused;
    }

    /**
     * Takes a valid spec: the job's board, made if new (dropping the board heard of least recently when there are
     * {@code maxJobs} already), takes it.
     */
    synchronized JobBoard submit(final JobSpec spec) {
        JobBoard board = boards.get(spec.getJob());
        if (board == null) {
            while (boards.size() >= maxJobs) {
                all().stream()
                        .min(Comparator.comparingLong(JobBoard::lastRecordMs).thenComparing(JobBoard::job))
                        .ifPresent(oldest -> drop(oldest.job()));
            }
            board = new JobBoard(spec.getJob());
            boards.put(spec.getJob(), board);
        }
        board.onSpec(spec);
        return board;
    }

    /**
     * The board a record of {@code telemetry}, {@code commands} or {@code model} naming {@code job} goes to; null,
     * and counted as ignored, when the job has no valid spec here.
     */
    JobBoard recordOf(final String job) {
        final JobBoard board = job == null ? null : boards.get(job);
        if (board == null) {
            ignored.incrementAndGet();
        }
        return board;
    }

    /** Counts a record of a job that its board refused (a worker not of the job). */
    void ignored() {
        ignored.incrementAndGet();
    }

    /** Records of jobs without a board, or refused by their board, ignored so far. */
    long ignoredRecords() {
        return ignored.get();
    }

    /** Drops the board of a deleted job; returns it, or null if there was none. */
    synchronized JobBoard delete(final String job) {
        return drop(job);
    }

    private JobBoard drop(final String job) {
        final JobBoard board = boards.remove(job);
        final String dataset = board == null ? null : board.dataset();
        if (dataset != null && !usesDataset(dataset)) {
            datasetUnused.accept(dataset);
        }
        return board;
    }

    /** Whether any board's job names {@code dataset}. */
    boolean usesDataset(final String dataset) {
        return boards.values().stream().anyMatch(board -> dataset.equals(board.dataset()));
    }

    /** The job's board, or null if it has none. */
    JobBoard find(final String job) {
        return boards.get(job);
    }

    /** How many boards are held. */
    int size() {
        return boards.size();
    }

    /** Makes only the {@code kept} boards heard of most recently that hold a model keep it. */
    void releaseModelsBeyond(final int kept) {
        all().stream()
                .filter(JobBoard::holdsModel)
                .sorted(Comparator.comparingLong(JobBoard::lastRecordMs).reversed())
                .skip(kept)
                .forEach(JobBoard::releaseModel);
    }

    List<JobBoard> all() {
        return List.copyOf(boards.values());
    }

    /** One summary per job, newest first. */
    JsonArray summaries() {
        final JsonArray jobs = new JsonArray();
        all().stream()
                .sorted(Comparator.comparingLong(JobBoard::createdAtMs)
                        .reversed()
                        .thenComparing(JobBoard::job))
                .forEach(board -> jobs.add(board.summary()));
        return jobs;
    }
}
