package io.paramhub.cli.chaos;

import io.paramhub.avro.DeadLetter;
import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.topology.client.TopicReader;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The only dead letters are the hostile tenant's, as many as it forged ({@link TenantLetters}), gradients a
 * restarted worker sent again ({@code DUPLICATE}, {@code STALE}), each byte-equal to a record earlier on its
 * {@code gradients} partition (a fault may repeat a record, never change one), and the SSP job's: a gradient of a
 * clock its worker had sent before ({@code DUPLICATE}; a restarted SSP worker computes it again on a newer model,
 * so the bytes differ) or one the aggregator refused as too stale ({@code STALE}, counted by {@link SspStaleness}).
 * Any other letter (a malformed record, an unknown schema after a registry restart, ...) fails the run, and so does
 * a forgery the tenant could not write.
 */
final class ExpectedDeadLetters implements Invariant {

    private static final Set<DeadLetterReason> EXPECTED = Set.of(DeadLetterReason.DUPLICATE, DeadLetterReason.STALE);

    @Override
    public String name() {
        return "only-expected-dead-letters";
    }

    @Override
    public Verdict check(final ChaosRecord run) {
        final List<DeadLetter> letters = new ArrayList<>();
        final Map<Integer, Map<Long, ByteBuffer>> gradients = new HashMap<>();
        try {
            try (TopicReader<String, DeadLetter> reader =
                    new TopicReader<>(run.topics().deadLetters(), run.client())) {
                reader.catchUp(Duration.ofSeconds(60), record -> letters.add(record.value()));
            }
            RawTopic.readAll(
                    run.client(),
                    run.topics().gradients().name(),
                    record -> gradients
                            .computeIfAbsent(record.partition(), partition -> new HashMap<>())
                            .put(record.offset(), record.value() == null ? null : ByteBuffer.wrap(record.value())));
        } catch (final RuntimeException e) {
            return Verdict.fail(name(), "could not read the dead letters or gradients: " + e.getMessage());
        }
        final TenantLetters tenant = tenantLetters(run);
        final List<DeadLetter> tenants = new ArrayList<>();
        final List<String> unexpected = new ArrayList<>(run.tenantFailures());
        for (final DeadLetter letter : letters) {
            if (tenant.forgeryOf(letter).isPresent()) {
                tenants.add(letter);
            } else if (!EXPECTED.contains(letter.getReason())
                    || !run.topics().gradients().name().equals(letter.getSourceTopic())) {
                unexpected.add(letter.getReason() + " from " + letter.getSourceTopic() + ": " + letter.getError());
            } else if (!repeatsAnEarlierRecord(gradients.getOrDefault(letter.getPartition(), Map.of()), letter)
                    && !sspLetter(run, gradients.getOrDefault(letter.getPartition(), Map.of()), letter)) {
                unexpected.add(letter.getReason() + " at " + letter.getSourceTopic() + "-" + letter.getPartition() + "@"
                        + letter.getOffset() + " equals no earlier record");
            }
        }
        unexpected.addAll(tenant.problems(tenants));
        return unexpected.isEmpty()
                ? Verdict.pass(
                        name(),
                        letters.size() + " dead letters: " + tenants.size() + " of the hostile tenant's "
                                + run.forged().size() + " forged records, " + (letters.size() - tenants.size())
                                + " repeated or (SSP) too stale gradients")
                : Verdict.fail(
                        name(),
                        unexpected.size() + " unexpected: "
                                + String.join("; ", unexpected.subList(0, Math.min(5, unexpected.size()))));
    }

    /** The tenant's letters as a run with its workers and worker restarts may have them. */
    static TenantLetters tenantLetters(final ChaosRecord run) {
        final ChaosTopology topology = ChaosTopology.of(
                run.jobs().stream().map(ChaosRecord.JobRun::job).toList());
        final long workerRestarts = run.faults().stream()
                .filter(fault -> fault.injected() && fault.fault().kind() == FaultKind.WORKER_KILL)
                .filter(fault -> topology.workers()
                        .get(fault.fault().target())
                        .job()
                        .equals(run.bsp().name()))
                .count();
        return new TenantLetters(HostileForgeries.kinds(run.bsp().spec()), run.forged(), (int)
                (run.bsp().workers() + workerRestarts));
    }

    /**
     * Whether {@code letter} is the SSP job's: {@code STALE}, or {@code DUPLICATE} of a gradient whose worker sent
     * the same shard and clock earlier on the partition.
     */
    private static boolean sspLetter(
            final ChaosRecord run, final Map<Long, ByteBuffer> partition, final DeadLetter letter) {
        final GradientShard gradient = decode(run, partition.get(letter.getOffset()));
        if (gradient == null
                || run.jobs().stream()
                        .noneMatch(job -> job.job().kind() == ChaosJob.Kind.SSP
                                && job.job().name().equals(gradient.getJob()))) {
            return false;
        }
        if (letter.getReason() == DeadLetterReason.STALE) {
            return true;
        }
        return partition.entrySet().stream()
                .filter(entry -> entry.getKey() < letter.getOffset())
                .map(entry -> decode(run, entry.getValue()))
                .anyMatch(earlier -> earlier != null
                        && earlier.getJob().equals(gradient.getJob())
                        && earlier.getShard() == gradient.getShard()
                        && earlier.getWorker().equals(gradient.getWorker())
                        && earlier.getClock() == gradient.getClock());
    }

    private static GradientShard decode(final ChaosRecord run, final ByteBuffer value) {
        if (value == null) {
            return null;
        }
        try {
            return run.topics()
                    .gradients()
                    .valueSerde()
                    .deserializer()
                    .deserialize(run.topics().gradients().name(), value.array());
        } catch (final RuntimeException e) {
            return null;
        }
    }

    private static boolean repeatsAnEarlierRecord(final Map<Long, ByteBuffer> partition, final DeadLetter letter) {
        final ByteBuffer value = partition.get(letter.getOffset());
        if (value == null) {
            return false;
        }
        return partition.entrySet().stream()
                .anyMatch(entry -> entry.getKey() < letter.getOffset() && value.equals(entry.getValue()));
    }
}
