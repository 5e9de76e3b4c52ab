package io.paramhub.bench;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.ModelShard;
import io.paramhub.ml.Model;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.ModelView;
import io.paramhub.topology.client.TopicReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evaluates a job's model while it trains, as any consumer of {@code model} could: a background thread
 * reads {@code model} (committed records), keeps the newest version of each shard and, at most every
 * {@code interval}, scores the newest complete model on the task's test set, stamped with when that
 * model was read. Reads {@code model}; writes nothing.
 */
final class MetricSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetricSampler.class);

    private final TopicCatalog topics;
    private final Properties client;
    private final BenchTask task;
    private final Duration interval;
    private final List<MetricSample> samples = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private Thread thread;

    MetricSampler(final TopicCatalog topics, final Properties client, final BenchTask task, final Duration interval) {
        this.topics = topics;
        this.client = client;
        this.task = task;
        this.interval = interval;
    }

    /** Starts sampling {@code spec}'s model; {@code model} must exist. */
    void start(final JobSpec spec) {
        thread = new Thread(() -> sample(spec), "bench-metric-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample(final JobSpec spec) {
        final Model model = task.newModel();
        final ModelView view = new ModelView(spec.getJob(), spec.getShards());
        long seenVersion = -1;
        long seenNanos = 0;
        long evaluatedVersion = -1;
        long lastEvaluation = 0;
        try (TopicReader<String, ModelShard> reader = new TopicReader<>(topics.model(), client)) {
            boolean draining = false;
            while (true) {
                final boolean stopping = stop.get();
                final int read =
                        reader.poll(Duration.ofMillis(stopping ? 200 : 10), record -> view.offer(record.value()));
                final long now = System.nanoTime();
                if (view.complete() && view.minVersion() > seenVersion) {
                    seenVersion = view.minVersion();
                    seenNanos = now;
                }
                final boolean due = now - lastEvaluation >= interval.toNanos() || stopping && read == 0;
                if (seenVersion > evaluatedVersion && due) {
                    final double metric = task.evaluate(model, view.assemble(spec.getParameters()));
                    synchronized (samples) {
                        samples.add(new MetricSample(seenNanos, seenVersion, metric));
                    }
                    evaluatedVersion = seenVersion;
                    lastEvaluation = now;
                }
                if (stopping && read == 0) {
                    if (draining) {
                        break;
                    }
                    draining = true;
                }
            }
        } catch (final RuntimeException e) {
            log.warn("metric sampler of job {} stopped", spec.getJob(), e);
        }
    }

    /** The samples so far, oldest first. */
    List<MetricSample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** Reads what is left of {@code model}, scores the newest model once more, and stops. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        if (thread != null) {
            thread.join(Duration.ofSeconds(30).toMillis());
        }
    }
}
