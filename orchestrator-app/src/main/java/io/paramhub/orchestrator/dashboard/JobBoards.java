package io.paramhub.orchestrator.dashboard;

import io.vertx.core.json.JsonArray;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Every job's {@link JobBoard}, by job name, as the feed meets them. Only the {@link #MODELS_HELD} jobs
 * heard of most recently hold their model's parameters: the others keep curves and figures, so an
 * orchestrator that has seen many jobs does not keep every one's parameter vector. A deleted job's board
 * is dropped, and records of it read afterwards (the feed reads its topics in no set order) make no new
 * board until the job is submitted again; the names of the last {@value #DELETED_REMEMBERED} deleted jobs
 * are remembered for that.
 */
final class JobBoards {

    /** How many jobs' models the dashboard holds at most. */
    static final int MODELS_HELD = 8;
    /** How many deleted jobs' names are remembered. */
    static final int DELETED_REMEMBERED = 1024;

    private final ConcurrentMap<String, JobBoard> boards = new ConcurrentHashMap<>();
    private final Set<String> deleted =
            Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<String, Boolean>() {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(final Map.Entry<String, Boolean> eldest) {
                    return size() > DELETED_REMEMBERED;
                }
            }));

    /** The job's board, made on first use; for a deleted job, a board that is not kept. */
    JobBoard board(final String job) {
        if (deleted.contains(job)) {
            return new JobBoard(job);
        }
        return boards.computeIfAbsent(job, JobBoard::new);
    }

    /** The job is submitted (again): its records make a board. */
    void submitted(final String job) {
        deleted.remove(job);
    }

    /** Drops the board of a deleted job; returns it, or null if there was none. */
    JobBoard delete(final String job) {
        deleted.add(job);
        return boards.remove(job);
    }

    /** Whether any board's job names {@code dataset}. */
    boolean usesDataset(final String dataset) {
        return boards.values().stream().anyMatch(board -> dataset.equals(board.dataset()));
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
