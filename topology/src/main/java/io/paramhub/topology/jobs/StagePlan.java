package io.paramhub.topology.jobs;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Model;
import io.paramhub.ml.ParameterRange;
import io.paramhub.ml.PipelineModel;
import io.paramhub.ml.PipelineStage;
import io.paramhub.ml.ShardLayout;
import io.paramhub.ml.ShardSizing;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a job maps workers and shards to pipeline stages. A data-parallel job is 1 stage of
 * {@code expectedWorkers} replicas: every worker computes every shard, on the plain layout. A hybrid job
 * ({@code stages > 1}): worker index {@code w} computes stage {@code w % stages} of data-parallel replica
 * {@code w / stages} (so a replica's stages are neighbouring worker ids), and the shards are cut so that each
 * holds parameters of one stage only ({@link ShardLayout#aligned}); a shard's BSP barrier waits for that
 * stage's workers alone. Reads and writes no topic.
 */
public final class StagePlan {

    private final int stages;
    private final int replicas;
    private final PipelineStage[] cut;
    private final ShardLayout layout;
    private final int[] shardStage;

    private StagePlan(final PipelineModel model, final int stages, final int workers, final int shards) {
        this.stages = stages;
        this.replicas = workers / stages;
        this.cut = new PipelineStage[stages];
        final List<Integer> boundaries = new ArrayList<>();
        for (int k = 0; k < stages; k++) {
            cut[k] = model.stage(k, stages);
            for (final ParameterRange range : cut[k].parameters()) {
                boundaries.add(range.from());
                boundaries.add(range.to());
            }
        }
        this.layout = ShardLayout.aligned(
                model.parameterCount(),
                shards,
                boundaries.stream().mapToInt(Integer::intValue).toArray());
        this.shardStage = new int[shards];
        for (int shard = 0; shard < shards; shard++) {
            shardStage[shard] = owner(layout.first(shard));
        }
    }

    /** A data-parallel job's plan: 1 stage, one replica per worker, the plain layout. */
    private StagePlan(final int workers, final int shards, final ShardLayout layout) {
        this.stages = 1;
        this.replicas = workers;
        this.cut = new PipelineStage[0];
        this.layout = layout;
        this.shardStage = new int[shards];
    }

    /**
     * The plan of {@code spec}: 1 stage for a data-parallel job ({@code stages <= 1}).
     *
     * @throws IllegalArgumentException for a hybrid job that cannot be run so ({@link #problems})
     */
    public static StagePlan of(final JobSpec spec) {
        if (!hybrid(spec)) {
            return new StagePlan(
                    spec.getExpectedWorkers(),
                    spec.getShards(),
                    ShardLayout.of(spec.getParameters(), spec.getShards()));
        }
        final List<String> problems = problems(spec, JobSpecs.model(spec));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("job " + spec.getJob() + ": " + String.join("; ", problems));
        }
        return new StagePlan(
                (PipelineModel) JobSpecs.model(spec), spec.getStages(), spec.getExpectedWorkers(), spec.getShards());
    }

    /** What keeps {@code spec} from running as a hybrid job, if it asks for stages; empty when fine. */
    static List<String> problems(final JobSpec spec, final Model model) {
        final List<String> problems = new ArrayList<>();
        final int stages = spec.getStages();
        if (stages < 1) {
            problems.add("stages must be >= 1, not " + stages);
            return problems;
        }
        if (spec.getMicroBatches() < 1) {
            problems.add("microBatches must be >= 1, not " + spec.getMicroBatches());
        }
        if (stages == 1) {
            return problems;
        }
        if (!(model instanceof PipelineModel pipeline)) {
            problems.add("model " + spec.getModel() + " cannot be cut into pipeline stages (it is no PipelineModel)");
            return problems;
        }
        if (stages > pipeline.maxStages()) {
            problems.add("model " + spec.getModel() + " can be cut into 1 to " + pipeline.maxStages() + " stages, not "
                    + stages);
            return problems;
        }
        if (spec.getExpectedWorkers() % stages != 0) {
            problems.add("expectedWorkers (" + spec.getExpectedWorkers() + ") must be a multiple of stages (" + stages
                    + "): replicas x stages");
        }
        if (spec.getSyncMode() != SyncMode.BSP || spec.getPipelineDepth() != 0) {
            problems.add("stages > 1 needs plain BSP (no pipelineDepth), not " + spec.getSyncMode()
                    + (spec.getPipelineDepth() != 0 ? " pipelined " + spec.getPipelineDepth() : ""));
        }
        try {
            new StagePlan(pipeline, stages, Math.max(stages, spec.getExpectedWorkers()), spec.getShards());
        } catch (final IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        return problems;
    }

    /**
     * The fewest shards {@code model} cut into {@code stages} stages should have: enough for each contiguous
     * run of parameters that one stage owns (the CNN's two stages own four such runs, an MLP's stages one
     * each) to get shards of at most {@link ShardSizing#RECORD_BUDGET_BYTES} as the plain layout's are.
     */
    public static int minimumShards(final PipelineModel model, final int stages) {
        final TreeSet<Integer> cuts = new TreeSet<>();
        for (int k = 0; k < stages; k++) {
            for (final ParameterRange range : model.stage(k, stages).parameters()) {
                cuts.add(range.from());
                cuts.add(range.to());
            }
        }
        cuts.add(0);
        cuts.add(model.parameterCount());
        int shards = 0;
        Integer previous = null;
        for (final int cut : cuts) {
            if (previous != null) {
                shards += ShardSizing.minimumShards(cut - previous);
            }
            previous = cut;
        }
        return shards;
    }

    private int owner(final int parameter) {
        for (int k = 0; k < stages; k++) {
            for (final ParameterRange range : cut[k].parameters()) {
                if (range.contains(parameter)) {
                    return k;
                }
            }
        }
        throw new IllegalStateException("parameter " + parameter + " belongs to no stage");
    }

    /** Whether {@code spec} asks for pipeline stages ({@code stages > 1}): a hybrid job. */
    public static boolean hybrid(final JobSpec spec) {
        return spec.getStages() > 1;
    }

    /** The stage the worker {@code worker} (an id of {@code spec}'s) computes; -1 for an id of no worker. */
    public static int stageOf(final JobSpec spec, final String worker) {
        final int index = WorkerIds.indexOf(worker);
        return index < 0 ? -1 : index % Math.max(1, spec.getStages());
    }

    /** Whether the job has pipeline stages ({@code stages > 1}). */
    public boolean hybrid() {
        return stages > 1;
    }

    public int stages() {
        return stages;
    }

    public int replicas() {
        return replicas;
    }

    /** The stage the worker of {@code index} computes. */
    public int stageOf(final int workerIndex) {
        return workerIndex % stages;
    }

    /** The replica the worker of {@code index} belongs to. */
    public int replicaOf(final int workerIndex) {
        return workerIndex / stages;
    }

    /** The worker index of {@code stage} in {@code replica}. */
    public int workerIndex(final int replica, final int stage) {
        return replica * stages + stage;
    }

    /** Stage {@code k} of the model; a hybrid job's only. */
    public PipelineStage stage(final int k) {
        return cut[k];
    }

    /** The shard layout, aligned to the stages' parameter ranges. */
    public ShardLayout layout() {
        return layout;
    }

    /** The stage whose parameters {@code shard} holds. */
    public int stageOfShard(final int shard) {
        return shardStage[shard];
    }

    /** The shards of {@code stage}, in order. */
    public List<Integer> shardsOf(final int stage) {
        final List<Integer> shards = new ArrayList<>();
        for (int shard = 0; shard < shardStage.length; shard++) {
            if (shardStage[shard] == stage) {
                shards.add(shard);
            }
        }
        return shards;
    }

    /**
     * Whether {@code worker} (an id of this job) computes the stage that owns {@code shard}: any worker of a
     * data-parallel job.
     */
    public boolean contributesTo(final String worker, final int shard) {
        if (!hybrid()) {
            return true;
        }
        final int index = WorkerIds.indexOf(worker);
        return index >= 0 && stageOf(index) == shardStage[shard];
    }

    /** The workers of {@code workers} that compute {@code shard}: all of them in a data-parallel job. */
    public Set<String> contributorsTo(final int shard, final Set<String> workers) {
        if (!hybrid()) {
            return workers;
        }
        final Set<String> stage = new TreeSet<>();
        for (final String worker : workers) {
            if (contributesTo(worker, shard)) {
                stage.add(worker);
            }
        }
        return stage;
    }
}
