package io.paramhub.topology.aggregator;

import io.paramhub.avro.DeadLetterReason;
import io.paramhub.avro.GradientShard;
import io.paramhub.avro.OffsetRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Shard 0's account of a topic-mode job's examples: the lineage of its version (the examples of every gradient
 * it applied, published as {@code ModelShard.examples}), the examples of the gradients it holds for a later BSP
 * clock, and the ranges added since the last version it published (for the {@link LineageHistory}). A gradient
 * that names an example already applied or held is refused as {@code DUPLICATE}, so that none is trained twice;
 * under BSP one clock's gradients, from workers that own disjoint partitions, never overlap. Other shards, and
 * gradients without examples (file-mode jobs), cost one size check. Mutable; owned by one {@link HotShard}.
 */
final class ShardLineage {

    private final boolean kept;
    private ExampleLineage applied = ExampleLineage.empty();
    /** The examples of {@link #applied} and of the gradients held for a later clock. */
    private ExampleLineage claimed = ExampleLineage.empty();

    private List<OffsetRange> added = new ArrayList<>();

    private ShardLineage(final boolean kept) {
        this.kept = kept;
    }

    /** The lineage of {@code shard}: kept by shard 0 only. */
    static ShardLineage of(final int shard) {
        return new ShardLineage(shard == 0);
    }

    /** Why {@code gradient} must not be applied: examples already applied or held ({@code DUPLICATE}); else empty. */
    Optional<Rejection> refusal(final GradientShard gradient) {
        if (!kept || gradient.getExamples().isEmpty()) {
            return Optional.empty();
        }
        return claimed.overlap(gradient.getExamples())
                .map(twice -> new Rejection(
                        DeadLetterReason.DUPLICATE,
                        "examples [" + twice.getStart() + ", " + twice.getEnd() + ") of partition "
                                + twice.getPartition() + " of the data topic were trained already (in the lineage of "
                                + "shard 0 of job " + gradient.getJob() + ", or in a gradient it holds for a later "
                                + "clock); worker " + gradient.getWorker() + ", clock " + gradient.getClock()));
    }

    /** A gradient with {@code examples} is held for a later BSP clock. */
    void hold(final List<OffsetRange> examples) {
        if (kept && !examples.isEmpty()) {
            claimed.add(examples);
        }
    }

    /** A gradient with {@code examples} was applied (held before, or applied on arrival). */
    void apply(final List<OffsetRange> examples) {
        if (kept && !examples.isEmpty()) {
            applied.add(examples);
            claimed.add(examples);
            added.addAll(examples);
        }
    }

    /**
     * A restore: the lineage of the version the shard was stored at, as its newest {@code model} record carries
     * it. The clocks a BSP restore applies again are in it already; gradients held again are {@link #hold held}.
     */
    void restored(final List<OffsetRange> examples) {
        if (kept) {
            applied = ExampleLineage.of(examples);
            claimed = applied.copy();
            added = new ArrayList<>();
        }
    }

    /** The ranges applied since the last call, for the version about to be published. */
    List<OffsetRange> takeAdded() {
        if (added.isEmpty()) {
            return List.of();
        }
        final List<OffsetRange> taken = added;
        added = new ArrayList<>();
        return taken;
    }

    /** The lineage of the shard's version (live: it changes as gradients are applied). */
    ExampleLineage applied() {
        return applied;
    }

    /** The lineage as {@code ModelShard.examples}: shard 0's ranges, empty for other shards. */
    List<OffsetRange> toAvro() {
        return kept && !applied.isEmpty() ? applied.ranges() : List.of();
    }
}
