package io.paramhub.orchestrator.dashboard;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.paramhub.orchestrator.OrchestratorRunner;
import io.paramhub.topology.orchestrator.JobState;
import io.paramhub.topology.orchestrator.OrchestratorTopology;
import io.vertx.ext.web.Router;
import java.time.Duration;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The orchestrator's live dashboard: a page at {@code /dashboard} and a Server-Sent-Events feed per job,
 * mounted on the orchestrator's HTTP endpoint. It reads {@code jobs}, {@code telemetry}, {@code commands} and
 * {@code model} ({@link DashboardFeed}), asks the orchestrator's store for each worker's speed and straggler
 * flag, and scores each model as it advances on the job's test set ({@link ModelEvaluator}), all off the
 * Streams threads. Only jobs with a valid spec get a board, at most {@code maxJobs} of them ({@link JobBoards}), and
 * test sets are loaded only from what the orchestrator is configured to read ({@link TestSets}). Writes to no topic.
 */
public final class Dashboard implements AutoCloseable {

    /** Shortest pause between two test-set evaluations. */
    public static final Duration EVALUATION_INTERVAL = Duration.ofSeconds(1);
    /** Event streams open at once when not told otherwise. */
    public static final int DEFAULT_MAX_EVENT_STREAMS = 32;
    /** Jobs' boards held at once when not told otherwise. */
    public static final int DEFAULT_MAX_JOBS = JobBoards.DEFAULT_MAX_JOBS;

    private final DashboardRoutes routes;
    private final DashboardFeed feed;
    private final ModelEvaluator evaluator;

    private Dashboard(final DashboardRoutes routes, final DashboardFeed feed, final ModelEvaluator evaluator) {
        this.routes = routes;
        this.feed = feed;
        this.evaluator = evaluator;
    }

    /**
     * Starts the dashboard of {@code orchestrator}, evaluating models on {@code testSets}, serving at most
     * {@code maxEventStreams} event streams at once, with at most {@link #DEFAULT_MAX_JOBS} boards.
     */
    public static Dashboard start(
            final OrchestratorRunner orchestrator, final TestSets testSets, final int maxEventStreams) {
        return start(orchestrator, testSets, maxEventStreams, DEFAULT_MAX_JOBS, null);
    }

    /**
     * As {@link #start(OrchestratorRunner, TestSets, int)}, with at most {@code maxJobs} boards, registering
     * {@code paramhub.dashboard.jobs} and {@code paramhub.dashboard.records.ignored} in {@code registry} (none when
     * null).
     */
    public static Dashboard start(
            final OrchestratorRunner orchestrator,
            final TestSets testSets,
            final int maxEventStreams,
            final int maxJobs,
            final MeterRegistry registry) {
        final EventStreamLimit limit = new EventStreamLimit(maxEventStreams);
        final JobBoards boards = new JobBoards(maxJobs, testSets::release);
        if (registry != null) {
            Gauge.builder("paramhub.dashboard.jobs", boards, JobBoards::size)
                    .description("Jobs the dashboard holds a board of (at most --dashboard-max-jobs)")
                    .register(registry);
            FunctionCounter.builder("paramhub.dashboard.records.ignored", boards, JobBoards::ignoredRecords)
                    .description("Records of telemetry, commands and model the dashboard ignored: of a job with no "
                            + "valid spec, or of a worker not of its job")
                    .register(registry);
        }
        final KafkaStreams streams = orchestrator.streams();
        final DashboardFeed feed = DashboardFeed.start(
                orchestrator.topics(),
                orchestrator.connection(),
                boards,
                job -> plannerState(streams, job),
                orchestrator.settings().issuesCommands());
        final ModelEvaluator evaluator = ModelEvaluator.start(boards::all, testSets, EVALUATION_INTERVAL);
        return new Dashboard(new DashboardRoutes(boards, limit), feed, evaluator);
    }

    /** Adds the page and feed routes to the orchestrator's router. */
    public void mount(final Router router) {
        routes.mount(router);
    }

    /** The orchestrator's state of {@code job} in this instance's store; null if it holds none or is not running. */
    private static PlannerView plannerState(final KafkaStreams streams, final String job) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            return null;
        }
        try {
            final ReadOnlyKeyValueStore<String, JobState> store = streams.store(StoreQueryParameters.fromNameAndType(
                    OrchestratorTopology.JOB_STATE_STORE, QueryableStoreTypes.keyValueStore()));
            final JobState state = store.get(job);
            return state == null ? null : PlannerView.of(state);
        } catch (final InvalidStateStoreException e) {
            return null; // rebalancing
        }
    }

    @Override
    public void close() {
        feed.close();
        evaluator.close();
    }
}
