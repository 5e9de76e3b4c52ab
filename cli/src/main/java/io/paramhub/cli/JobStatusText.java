package io.paramhub.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.paramhub.topology.client.JobStatus;
import io.paramhub.topology.client.JobStatus.Member;
import io.paramhub.topology.client.JobStatus.Plan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/** How {@code paramhub jobs list} and {@code jobs status} print {@link JobStatus}es: as text, or as JSON. */
final class JobStatusText {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .registerModule(new SimpleModule().addSerializer(Instant.class, ToStringSerializer.instance));

    private static final List<String> HEADER =
            List.of("JOB", "MODEL", "DATA SET", "WORKERS", "SYNC", "VERSION", "CLOCK", "STATE");

    private JobStatusText() {}

    /** One line a job under a header, columns aligned; a line saying so when there is no job. */
    static List<String> table(final List<JobStatus> jobs) {
        if (jobs.isEmpty()) {
            return List.of("no jobs");
        }
        final List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (final JobStatus job : jobs) {
            rows.add(List.of(
                    job.job(),
                    job.model(),
                    job.dataset(),
                    job.liveWorkers().size() + "/" + job.workers(),
                    job.syncMode(),
                    job.version() < 0 ? "-" : Long.toString(job.version()),
                    clock(job),
                    job.state().label()));
        }
        final int[] widths = new int[HEADER.size()];
        for (final List<String> row : rows) {
            for (int c = 0; c < row.size(); c++) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        final List<String> lines = new ArrayList<>();
        for (final List<String> row : rows) {
            final StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.size(); c++) {
                line.append(
                        c == row.size() - 1
                                ? row.get(c)
                                : String.format(Locale.ROOT, "%-" + widths[c] + "s  ", row.get(c)));
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }

    private static String clock(final JobStatus job) {
        if (job.minClock() < 0) {
            return "-";
        }
        return job.totalClocks() < 0 ? Long.toString(job.minClock()) : job.minClock() + "/" + job.totalClocks();
    }

    /** The status of one job, a few lines, as of {@code now} (for the workers' "last seen"). */
    static List<String> status(final JobStatus job, final Instant now) {
        final List<String> lines = new ArrayList<>();
        lines.add("job " + job.job() + ": " + job.state().label());
        lines.add(String.format(
                Locale.ROOT,
                "  spec     %s on %s, %d workers, %s, %d shard%s",
                job.model(),
                job.dataset(),
                job.workers(),
                job.syncMode(),
                job.shards(),
                job.shards() == 1 ? "" : "s"));
        if (job.version() < 0) {
            lines.add("  model    no version yet");
        } else {
            lines.add("  version  " + job.version()
                    + (job.versionsDiffer() ? " (per shard: " + join(job.versions()) + ")" : "")
                    + (job.updatedAt() == null ? "" : ", written " + ago(job.updatedAt(), now) + " ago"));
            lines.add("  clock    "
                    + (job.totalClocks() < 0 ? job.minClock() : job.minClock() + " of " + job.totalClocks())
                    + " (every live worker's gradients before it are in the model)"
                    + (job.clocks().isEmpty()
                            ? ""
                            : "; per worker: "
                                    + job.clocks().entrySet().stream()
                                            .map(e -> e.getKey() + " " + e.getValue())
                                            .collect(Collectors.joining(", "))));
        }
        lines.add("  workers  " + job.liveWorkers().size() + " live of " + job.workers() + " expected"
                + (job.members().isEmpty()
                        ? ""
                        : ": " + job.members().stream().map(m -> member(m, now)).collect(Collectors.joining(", "))));
        lines.addAll(plan(job.plan()));
        lines.add("  dead letters "
                + (job.deadLetters().isEmpty()
                        ? "none"
                        : job.deadLetterCount() + " ("
                                + job.deadLetters().entrySet().stream()
                                        .map(e -> e.getKey() + " " + e.getValue())
                                        .collect(Collectors.joining(", "))
                                + ")"));
        if (job.exampleOffsets() >= 0) {
            lines.add("  examples at most " + job.exampleOffsets()
                    + " (data-topic offsets the model has trained through)");
        }
        return lines;
    }

    private static String member(final Member member, final Instant now) {
        return member.worker() + " " + member.state() + " at clock " + member.clock()
                + (member.live() ? "" : " (not live, seen " + ago(member.lastSeen(), now) + " ago)");
    }

    private static List<String> plan(final Plan plan) {
        if (plan == null) {
            return List.of("  plan     none (no orchestrator plan for this job)");
        }
        final StringJoiner shares = new StringJoiner(", ");
        plan.shares()
                .forEach((worker, share) -> shares.add(String.format(
                        Locale.ROOT,
                        "%s %.3f x %d thread%s",
                        worker,
                        share,
                        plan.threads().getOrDefault(worker, 0),
                        plan.threads().getOrDefault(worker, 0) == 1 ? "" : "s")));
        final List<String> lines = new ArrayList<>();
        lines.add("  plan     " + plan.epoch()
                + (plan.inForce() >= 0 ? " (version in force: " + plan.inForce() + ")" : "") + ": " + shares);
        lines.add("  stragglers " + (plan.stragglers().isEmpty() ? "none" : String.join(", ", plan.stragglers())) + " ("
                + plan.reason() + ")");
        return lines;
    }

    private static String join(final List<Long> values) {
        return values.stream().map(v -> v < 0 ? "-" : Long.toString(v)).collect(Collectors.joining(" "));
    }

    private static String ago(final Instant then, final Instant now) {
        final Duration age = Duration.between(then, now);
        return age.isNegative() ? "0.0 s" : String.format(Locale.ROOT, "%.1f s", age.toMillis() / 1000.0);
    }

    /** {@code value} as indented JSON (instants as ISO-8601 strings). */
    static String json(final Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (final JsonProcessingException e) {
            throw new IllegalStateException("could not write JSON: " + e.getMessage(), e);
        }
    }
}
