package io.paramhub.orchestrator.dashboard;

import io.vertx.core.json.JsonArray;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every job's {@link JobBoard}, by job name, as the feed meets them. Only the {@link #MODELS_HELD} jobs
 * heard of most recently hold their model's parameters: the others keep curves and figures, so an
 * orchestrator that has seen many jobs does not keep every one's parameter vector.
 */
final class JobBoards {

    /** How many jobs' models the dashboard holds at most. */
    static final int MODELS_HELD = 8;

    private final ConcurrentMap<String, JobBoard> boards = new ConcurrentHashMap<>();

    /** The job's board, made on first use. */
    JobBoard board(final String job) {
        return boards.computeIfAbsent(job, JobBoard::new);
    }

    /** The job's board, or null if no record of it has been read. */
    JobBoard find(final String job) {
        return boards.get(job);
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
