package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The hostile tenant's dead letters counted against what it sent: each forgery the aggregators read (commands,
 * membership, jobs) dead-lettered exactly once per record sent (the aggregators write their letters in their
 * exactly-once transactions), each forged model version at least once and at most once per worker process that
 * read it (every worker sets it aside; a restarted worker reads the topic again).
 */
final class TenantLetters {

    private final List<Forgery> kinds;
    private final List<HostileTenant.Sent> sent;
    private final int maxReadsPerModelRecord;

    /**
     * @param kinds                   the forgeries the tenant makes
     * @param sent                    what it wrote
     * @param maxReadsPerModelRecord  how many worker processes may have read a forged model version: the job's workers
     *                                plus one per worker restart
     */
    TenantLetters(final List<Forgery> kinds, final List<HostileTenant.Sent> sent, final int maxReadsPerModelRecord) {
        this.kinds = List.copyOf(kinds);
        this.sent = List.copyOf(sent);
        this.maxReadsPerModelRecord = maxReadsPerModelRecord;
    }

    /** The forgery {@code letter} is the dead letter of, if it is one of the tenant's. */
    Optional<Forgery> forgeryOf(final DeadLetter letter) {
        return kinds.stream().filter(kind -> kind.matches(letter)).findFirst();
    }

    /** What is wrong with the counts of {@code tenantLetters} (letters {@link #forgeryOf} attributes), empty if nothing. */
    List<String> problems(final List<DeadLetter> tenantLetters) {
        final List<String> problems = new ArrayList<>();
        for (final Forgery kind : kinds) {
            final long written =
                    sent.stream().filter(one -> one.forgery().equals(kind)).count();
            final long letters = tenantLetters.stream()
                    .filter(letter -> forgeryOf(letter).filter(kind::equals).isPresent())
                    .count();
            final long min = written;
            final long max = kind.byWorkers() ? written * maxReadsPerModelRecord : written;
            if (letters < min || letters > max) {
                problems.add(kind.kind() + ": " + letters + " dead letters for " + written + " written, expected "
                        + (min == max ? Long.toString(min) : min + ".." + max));
            }
        }
        return problems;
    }
}
