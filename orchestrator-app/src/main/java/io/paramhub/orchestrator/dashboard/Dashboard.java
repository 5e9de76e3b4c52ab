package io.paramhub.orchestrator.dashboard;

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
 * Streams threads. Writes to no topic.
 */
public final class Dashboard implements AutoCloseable {

    /** Shortest pause between two test-set evaluations. */
    public static final Duration EVALUATION_INTERVAL = Duration.ofSeconds(1);
    /** Event streams open at once when not told otherwise. */
    public static final int DEFAULT_MAX_EVENT_STREAMS = 32;

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
     * {@code maxEventStreams} event streams at once.
     */
    public static Dashboard start(
            final OrchestratorRunner orchestrator, final TestSets testSets, final int maxEventStreams) {
        final EventStreamLimit limit = new EventStreamLimit(maxEventStreams);
        final JobBoards boards = new JobBoards();
        final KafkaStreams streams = orchestrator.streams();
        final DashboardFeed feed = DashboardFeed.start(
                orchestrator.topics(),
                orchestrator.connection(),
                boards,
                job -> plannerState(streams, job),
                orchestrator.settings().issuesCommands(),
                board -> {
                    final String dataset = board.dataset();
                    if (dataset != null && !boards.usesDataset(dataset)) {
                        testSets.release(dataset);
                    }
                });
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
