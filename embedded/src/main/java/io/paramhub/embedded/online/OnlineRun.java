package io.paramhub.embedded.online;

import io.paramhub.aggregator.AggregatorRunner;
import io.paramhub.avro.JobSpec;
import io.paramhub.avro.WorkerState;
import io.paramhub.avro.WorkerStatus;
import io.paramhub.embedded.KafkaConnection;
import io.paramhub.launcher.TopicSetup;
import io.paramhub.ml.TopicSpec;
import io.paramhub.topology.PartitionLeaders;
import io.paramhub.topology.TopicCatalog;
import io.paramhub.topology.client.JobSubmitter;
import io.paramhub.topology.client.TopicReader;
import io.paramhub.topology.jobs.JobSpecs;
import io.paramhub.worker.IterationListener;
import io.paramhub.worker.Worker;
import io.paramhub.worker.WorkerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.streams.StreamsConfig;

/**
 * A topic-mode job run in this JVM on a cluster: creates the data topic (a partition a worker) unless it exists,
 * starts an aggregator, submits the job to {@code jobs}, runs its workers as threads, starts the examples
 * streaming in once every worker has announced itself on {@code membership}, and waits until every worker has
 * left (its input over). The workers' telemetry goes to the run's listener as it comes.
 */
public final class OnlineRun {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(60);
    private static final long WAIT_STEP_MS = 100;

    /** Starts the examples streaming into the data topic. */
    @FunctionalInterface
    public interface Supply {
        Streaming start();
    }

    /** Examples streaming in: done (or failed) when the last is written; closing it stops them. */
    public interface Streaming extends AutoCloseable {
        CompletableFuture<?> done();
    }

    /** How long the run took: from the start to the last worker leaving, and from the first example streamed. */
    public record Result(double wallSeconds, double streamingSeconds) {}

    private final KafkaConnection connection;
    private final String topicPrefix;
    private final Path stateDir;
    private final int workerThreads;

    /** A run on {@code connection}'s cluster, topics named with {@code topicPrefix}, Streams state in {@code stateDir}. */
    public OnlineRun(
            final KafkaConnection connection, final String topicPrefix, final Path stateDir, final int workerThreads) {
        this.connection = connection;
        this.topicPrefix = topicPrefix;
        this.stateDir = stateDir;
        this.workerThreads = workerThreads;
    }

    /** Runs {@code spec}, its examples from {@code supply}, each clock's telemetry told to {@code listener}. */
    public Result run(final JobSpec spec, final Supply supply, final IterationListener listener)
            throws InterruptedException {
        JobSpecs.requireValid(spec);
        final long started = System.nanoTime();
        final TopicCatalog topics = connection.topics(topicPrefix);
        final Properties client = connection.client();
        createDataTopic(TopicSpec.parse(spec.getDataset()).topic(), spec.getExpectedWorkers());
        final Properties streams = connection.streams();
        streams.put(
                StreamsConfig.STATE_DIR_CONFIG, stateDir.resolve("aggregator").toString());
        final ExecutorService threads = Executors.newFixedThreadPool(spec.getExpectedWorkers());
        try (AggregatorRunner aggregator = AggregatorRunner.start(streams, topicPrefix, TopicSetup.defaults());
                TopicReader<String, WorkerStatus> membership = new TopicReader<>(topics.membership(), client)) {
            JobSubmitter.submit(topics.jobs(), client, spec);
            final List<Future<?>> workers = new ArrayList<>();
            for (int index = 0; index < spec.getExpectedWorkers(); index++) {
                final Worker worker = new Worker(
                        WorkerSettings.of(spec.getJob(), index, spec.getExpectedWorkers())
                                .withThreads(workerThreads),
                        topics,
                        client,
                        Worker.loadFromSpec(),
                        listener);
                workers.add(threads.submit(worker));
            }
            awaitJoined(membership, spec);
            final long streaming = System.nanoTime();
            try (Streaming examples = supply.start()) {
                awaitWorkers(workers, examples.done());
            } catch (final ExecutionException | CompletionException e) {
                throw new IllegalStateException(
                        "online job " + spec.getJob() + " failed: "
                                + e.getCause().getMessage(),
                        e.getCause());
            } catch (final InterruptedException e) {
                throw e;
            } catch (final Exception e) {
                throw new IllegalStateException("the examples of job " + spec.getJob() + " stopped: " + e, e);
            }
            final long ended = System.nanoTime();
            return new Result((ended - started) / 1e9, (ended - streaming) / 1e9);
        } finally {
            threads.shutdownNow();
            threads.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** Waits until every worker has finished; throws as soon as one fails or the examples stop with an error. */
    private static void awaitWorkers(final List<Future<?>> workers, final CompletableFuture<?> examples)
            throws ExecutionException, InterruptedException {
        while (true) {
            boolean all = true;
            for (final Future<?> worker : workers) {
                if (worker.isDone()) {
                    worker.get();
                } else {
                    all = false;
                }
            }
            if (all) {
                return;
            }
            if (examples.isCompletedExceptionally()) {
                examples.join();
            }
            Thread.sleep(WAIT_STEP_MS);
        }
    }

    private void createDataTopic(final String topic, final int partitions) {
        try (Admin admin = Admin.create(connection.client())) {
            admin.createTopics(List.of(new NewTopic(topic, Optional.of(partitions), Optional.empty())))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            PartitionLeaders.awaitServing(admin, List.of(topic), Duration.ofSeconds(30));
        } catch (final ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create data topic " + topic + ": " + e.getCause(), e);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted creating data topic " + topic, e);
        } catch (final TimeoutException e) {
            throw new IllegalStateException("creating data topic " + topic + " took over 30 s", e);
        }
    }

    /** Waits until every worker of {@code spec} has announced it joined. */
    private static void awaitJoined(final TopicReader<String, WorkerStatus> membership, final JobSpec spec) {
        final Set<String> joined = new HashSet<>();
        final long deadline = System.nanoTime() + JOIN_TIMEOUT.toNanos();
        while (joined.size() < spec.getExpectedWorkers()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + joined + " of job " + spec.getJob() + "'s "
                        + spec.getExpectedWorkers() + " workers joined within " + JOIN_TIMEOUT.toSeconds() + " s");
            }
            membership.poll(Duration.ofMillis(100), record -> {
                final WorkerStatus status = record.value();
                if (status != null
                        && status.getJob().equals(spec.getJob())
                        && status.getState() == WorkerState.JOINED) {
                    joined.add(status.getWorker());
                }
            });
        }
    }
}
