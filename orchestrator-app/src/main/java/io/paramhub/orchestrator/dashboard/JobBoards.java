package io.paramhub.orchestrator.dashboard;

import io.vertx.core.json.JsonArray;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/** Every job's {@link JobBoard}, by job name, as the feed meets them. */
final class JobBoards {

    private final ConcurrentMap<String, JobBoard> boards = new ConcurrentHashMap<>();

    /** The job's board, made on first use. */
    JobBoard board(final String job) {
        return boards.computeIfAbsent(job, JobBoard::new);
    }

    /** The job's board, or null if no record of it has been read. */
    JobBoard find(final String job) {
        return boards.get(job);
    }

    List<JobBoard> all() {
        return List.copyOf(boards.values());
    }

    /** One summary per job, newest first. */
    JsonArray summaries() {
        final JsonArray jobs = new JsonArray();
        all().stream().sorted(Comparator.comparingLong(JobBoard::createdAtMs).reversed()
                .thenComparing(JobBoard::job))
            .forEach(board -> jobs.add(board.summary()));
        return jobs;
    }
}
