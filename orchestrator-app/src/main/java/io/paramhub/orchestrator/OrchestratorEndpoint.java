package io.paramhub.orchestrator;

import io.paramhub.launcher.BearerToken;
import io.paramhub.launcher.HttpOptions;
import io.paramhub.launcher.OpsEndpoints;
import io.paramhub.orchestrator.dashboard.Dashboard;
import io.paramhub.orchestrator.dashboard.TestSets;
import io.paramhub.orchestrator.http.WorkersQueryServer;

/**
 * The orchestrator's HTTP endpoint as its app serves it, and as {@code paramhub demo --dashboard} serves it
 * too: {@code GET /jobs/{job}/workers} from the runner's store, the live {@link Dashboard} when given test
 * sets to score models on, and {@code /health/ready} and {@code /metrics} when given {@link OpsEndpoints}.
 */
public final class OrchestratorEndpoint implements AutoCloseable {

    private final Dashboard dashboard;
    private final WorkersQueryServer server;

    private OrchestratorEndpoint(final Dashboard dashboard, final WorkersQueryServer server) {
        this.dashboard = dashboard;
        this.server = server;
    }

    /**
     * Serves {@code runner} on {@code host}:{@code port} (0 = any free port) with no token, with the dashboard
     * when {@code dashboardTestSets} is not null and {@code ops} when not null; blocks until it listens.
     */
    public static OrchestratorEndpoint start(
            final OrchestratorRunner runner,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final TestSets dashboardTestSets) {
        return start(
                runner,
                new HttpOptions.Endpoint(port, host, host, BearerToken.NONE),
                ops,
                dashboardTestSets,
                Dashboard.DEFAULT_MAX_EVENT_STREAMS);
    }

    /**
     * Serves {@code runner} at {@code endpoint} (its bind host, port and token), with the dashboard when
     * {@code dashboardTestSets} is not null (at most {@code maxEventStreams} event streams at once) and
     * {@code ops} when not null; blocks until it listens.
     */
    public static OrchestratorEndpoint start(
            final OrchestratorRunner runner,
            final HttpOptions.Endpoint endpoint,
            final OpsEndpoints ops,
            final TestSets dashboardTestSets,
            final int maxEventStreams) {
        return start(runner, endpoint, ops, dashboardTestSets, maxEventStreams, Dashboard.DEFAULT_MAX_JOBS);
    }

    /**
     * As {@link #start(OrchestratorRunner, HttpOptions.Endpoint, OpsEndpoints, TestSets, int)}, the dashboard holding
     * at most {@code maxJobs} jobs' boards (its meters in {@code ops}' registry when given).
     */
    public static OrchestratorEndpoint start(
            final OrchestratorRunner runner,
            final HttpOptions.Endpoint endpoint,
            final OpsEndpoints ops,
            final TestSets dashboardTestSets,
            final int maxEventStreams,
            final int maxJobs) {
        final Dashboard dashboard = dashboardTestSets == null
                ? null
                : Dashboard.start(
                        runner,
                        dashboardTestSets,
                        maxEventStreams,
                        maxJobs,
                        ops == null ? null : ops.metrics().registry());
        try {
            return new OrchestratorEndpoint(
                    dashboard,
                    WorkersQueryServer.start(
                            runner.streams(), endpoint.bindHost(), endpoint.port(), endpoint.token(), ops, dashboard));
        } catch (final RuntimeException e) {
            if (dashboard != null) {
                dashboard.close();
            }
            throw e;
        }
    }

    /** The port it listens on. */
    public int port() {
        return server.port();
    }

    /** Stops answering, then stops the dashboard's readers. */
    @Override
    public void close() {
        server.close();
        if (dashboard != null) {
            dashboard.close();
        }
    }
}
