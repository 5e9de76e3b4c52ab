package io.paramhub.topology.orchestrator;

import io.paramhub.avro.PartitionOwner;
import io.paramhub.avro.ServerTelemetry;
import io.paramhub.avro.ShardPlacement;
import io.paramhub.topology.placement.PlacementPlanner;
import io.paramhub.topology.placement.PlacementSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code server-telemetry} (key: aggregator instance) → {@code placements} (key {@value #PLACEMENT_KEY}): the
 * orchestrator's view of its parameter servers.
 *
 * <p>Each shard-round record goes into its instance's window ({@link InstanceWindow}: the median ms per
 * shard-round of the last {@code window}) and says which instance holds the partition now and which shards
 * (job/shard) live on it: a partition's weight is its measured cost in typical shard-rounds
 * ({@link PartitionCosts}: its shards, by their own round times and their jobs' pace). Every
 * {@code evaluateEvery} of wall-clock time, once at least two instances have half a window, it flags slow
 * instances (above the median by more than {@code slowThreshold}), plans the placement with the shortest
 * predicted round ({@link PlacementPlanner}) and recommends an instance count (a log line when it changes,
 * and the meters {@code paramhub.orchestrator.aggregators.recommended} and
 * {@code paramhub.orchestrator.aggregators.predicted.gain}). It issues the placement, with the next version,
 * when
 * <ul>
 *   <li>it moves at least one partition, and there is a slow instance or a placement was issued before;</li>
 *   <li>its predicted gain is at least {@code minGain} plus twice the largest relative standard error of the
 *   instances' windows, in {@code minStreak} evaluations in a row;</li>
 *   <li>the last placement has taken effect (every partition it names reported by its named owner) and is at
 *   least {@code minInterval} old (or three times that, if it never took effect).</li>
 * </ul>
 * The last placement issued is kept in {@value OrchestratorTopology#PLACEMENT_STORE} (versions continue after
 * a restart); the windows live in memory and fill again within a few rounds.
 */
final class PlacementProcessor implements Processor<String, ServerTelemetry, String, ShardPlacement> {

    private static final Logger log = LoggerFactory.getLogger(PlacementProcessor.class);

    /** The key of the one placement record: the aggregators' group. */
    static final String PLACEMENT_KEY = "aggregators";

    private final PlacementSettings settings;
    private final OrchestratorMetrics metrics;
    private final Map<String, InstanceWindow> windows = new HashMap<>();
    private final Map<Integer, String> owners = new TreeMap<>();
    private final PartitionCosts costs;

    private ProcessorContext<String, ShardPlacement> context;
    private KeyValueStore<String, ShardPlacement> store;
    private int streak;
    private SortedSet<String> flagged = new TreeSet<>();
    private int recommended = -1;

    PlacementProcessor(final PlacementSettings settings, final OrchestratorMetrics metrics) {
        this.settings = settings;
        this.metrics = metrics;
        this.costs = new PartitionCosts(settings.window());
    }

    @Override
    public void init(final ProcessorContext<String, ShardPlacement> context) {
        this.context = context;
        this.store = context.getStateStore(OrchestratorTopology.PLACEMENT_STORE);
        context.schedule(settings.evaluateEvery(), PunctuationType.WALL_CLOCK_TIME, this::evaluate);
    }

    @Override
    public void process(final Record<String, ServerTelemetry> record) {
        final ServerTelemetry telemetry = record.value();
        if (telemetry == null) {
            return;
        }
        // when the shard-round happened, not when it is read: an orchestrator that starts on an old backlog
        // (a new group reads server-telemetry from the beginning) forgets instances long gone
        final long at = telemetry.getTimestamp().toEpochMilli();
        if (context.currentSystemTimeMs() - at > settings.forgetAfter().toMillis()) {
            return;
        }
        windows.computeIfAbsent(telemetry.getInstance(), ignored -> new InstanceWindow(settings.window()))
                .add(telemetry.getRoundMs(), at);
        owners.put(telemetry.getPartition(), telemetry.getInstance());
        costs.add(telemetry, at);
    }

    /** Judges the instances and issues a placement if one is due. */
    void evaluate(final long now) {
        windows.entrySet()
                .removeIf(entry -> now - entry.getValue().lastSeenMs()
                        > settings.forgetAfter().toMillis());
        owners.values().removeIf(instance -> !windows.containsKey(instance));
        costs.forgetBefore(now - settings.forgetAfter().toMillis());
        owners.keySet().retainAll(costs.owners().keySet());
        final Map<String, Double> ms = new TreeMap<>();
        double noise = 0;
        for (final Map.Entry<String, InstanceWindow> entry : windows.entrySet()) {
            if (entry.getValue().count() >= settings.window() / 2) {
                ms.put(entry.getKey(), entry.getValue().medianMs());
                noise = Math.max(noise, entry.getValue().noise());
            }
        }
        if (ms.size() < 2 || owners.isEmpty() || !ms.keySet().containsAll(owners.values())) {
            return;
        }
        final SortedMap<Integer, Double> weights = costs.weights(ms);
        weights.keySet().retainAll(owners.keySet());
        final PlacementPlanner.Plan plan = PlacementPlanner.place(weights, ms, owners, settings.slowThreshold());
        final int shardCount = costs.shardCount();
        final PlacementPlanner.Scaling scaling =
                PlacementPlanner.scaling(shardCount, ms, settings.scaleOutGain(), settings.scaleInLoss());
        recommend(scaling, ms);
        if (!plan.slow().equals(flagged)) {
            flagged = plan.slow();
            log.info("slow aggregator instances: {} (ms per shard-round: {})", flagged, rounded(ms));
        }
        if (!settings.issues()) {
            return;
        }
        final ShardPlacement last = store.get(PLACEMENT_KEY);
        if (last != null) {
            final long age = now - last.getIssuedAt().toEpochMilli();
            // a partition whose named instance is gone is placed by the aggregators' fallback: nothing to wait for
            final boolean settled = last.getOwners().stream()
                    .allMatch(owner -> !windows.containsKey(owner.getInstance())
                            || !owners.containsKey(owner.getPartition())
                            || owner.getInstance().equals(owners.get(owner.getPartition())));
            if (age < settings.minInterval().toMillis()
                    || !settled && age < 3 * settings.minInterval().toMillis()) {
                streak = 0;
                return;
            }
        }
        if (plan.moves() == 0
                || last == null && plan.slow().isEmpty()
                || plan.gain() < settings.minGain() + PlanningProcessor.NOISE_MARGIN * noise) {
            streak = 0;
            return;
        }
        streak++;
        if (streak < settings.minStreak()) {
            return;
        }
        streak = 0;
        final ShardPlacement placement = placement(last == null ? 1 : last.getVersion() + 1, plan, ms, scaling, now);
        store.put(PLACEMENT_KEY, placement);
        metrics.placed();
        log.info("placement version {}: {}", placement.getVersion(), placement.getReason());
        context.forward(new Record<>(PLACEMENT_KEY, placement, now));
        context.commit();
    }

    private void recommend(final PlacementPlanner.Scaling scaling, final Map<String, Double> ms) {
        metrics.recommendation(scaling.instances(), scaling.gain());
        if (scaling.instances() != recommended) {
            recommended = scaling.instances();
            if (scaling.instances() != ms.size()) {
                log.info(
                        "recommend {} aggregator instances instead of {}: predicted round server time {}{}%",
                        scaling.instances(),
                        ms.size(),
                        scaling.gain() >= 0 ? "-" : "+",
                        String.format(Locale.ROOT, "%.0f", 100 * Math.abs(scaling.gain())));
            }
        }
    }

    private static ShardPlacement placement(
            final long version,
            final PlacementPlanner.Plan plan,
            final Map<String, Double> ms,
            final PlacementPlanner.Scaling scaling,
            final long now) {
        final List<PartitionOwner> owners = new ArrayList<>();
        plan.owners().forEach((partition, instance) -> owners.add(new PartitionOwner(partition, instance)));
        final String reason = String.format(
                Locale.ROOT,
                "%s; ms per shard-round %s; %d partition%s moved; predicted round server time %.1f -> %.1f ms (-%.0f%%)",
                plan.slow().isEmpty() ? "no slow instance: rebalancing to measured speeds" : plan.slow() + " slow",
                rounded(ms),
                plan.moves(),
                plan.moves() == 1 ? "" : "s",
                plan.currentRoundMs(),
                plan.predictedRoundMs(),
                100 * plan.gain());
        return ShardPlacement.newBuilder()
                .setVersion(version)
                .setOwners(owners)
                .setMsPerShardRound(new TreeMap<>(ms))
                .setCurrentRoundMs(plan.currentRoundMs())
                .setPredictedRoundMs(plan.predictedRoundMs())
                .setSlowInstances(new ArrayList<>(plan.slow()))
                .setRecommendedInstances(scaling.instances())
                .setReason(reason)
                .setIssuedAt(Instant.ofEpochMilli(now))
                .build();
    }

    private static Map<String, String> rounded(final Map<String, Double> ms) {
        final Map<String, String> shown = new TreeMap<>();
        ms.forEach((instance, value) -> shown.put(instance, String.format(Locale.ROOT, "%.1f", value)));
        return shown;
    }
}
