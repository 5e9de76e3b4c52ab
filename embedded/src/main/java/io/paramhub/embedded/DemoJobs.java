package io.paramhub.embedded;

import io.paramhub.avro.JobSpec;
import io.paramhub.ml.Model;
import io.paramhub.topology.jobs.JobData;
import io.paramhub.topology.jobs.JobRecipe;
import io.paramhub.topology.jobs.JobSettings;

/**
 * The job {@code paramhub demo} trains for a model when no option says otherwise, so that every command that trains
 * "as the demo does" ({@code bench --scenario round-cost}, {@code hybrid}, {@code online}) builds the same job: the
 * {@link JobRecipe}'s, with nothing but the model, the data and the run's shape chosen.
 */
public final class DemoJobs {

    private DemoJobs() {}

    /**
     * The recipe's job for {@code model} on {@code trainingSamples} examples of {@code dataset}: BSP, the model's
     * optimizer, rate and schedule (over all of the job's clocks, {@code epochs} x floor({@code trainingSamples} /
     * {@code batch})), {@code requestedShards} raised as the model's size needs. Override what the user chose, then
     * build.
     */
    public static JobSpec.Builder defaults(
            final Model model,
            final int requestedShards,
            final String job,
            final String dataset,
            final int trainingSamples,
            final int workers,
            final int batch,
            final int epochs,
            final long seed) {
        final JobSettings settings = JobSettings.none()
                .job(job)
                .model(model.kind())
                .workers(workers)
                .batch(batch)
                .epochs(epochs)
                .shards(requestedShards)
                .seed(seed);
        return JobSpec.newBuilder(JobRecipe.spec(
                settings, new JobData(dataset, model.inputs(), model.outputs(), trainingSamples, false)));
    }
}
