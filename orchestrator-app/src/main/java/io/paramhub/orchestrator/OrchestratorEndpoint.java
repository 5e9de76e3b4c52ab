package io.paramhub.orchestrator;

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
     * Serves {@code runner} on {@code host}:{@code port} (0 = any free port), with the dashboard when
     * {@code dashboardTestSets} is not null and {@code ops} when not null; blocks until it listens.
     */
    public static OrchestratorEndpoint start(
            final OrchestratorRunner runner,
            final String host,
            final int port,
            final OpsEndpoints ops,
            final TestSets dashboardTestSets) {
        final Dashboard dashboard = dashboardTestSets == null ? null : Dashboard.start(runner, dashboardTestSets);
        try {
            return new OrchestratorEndpoint(
                    dashboard, WorkersQueryServer.start(runner.streams(), host, port, ops, dashboard));
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
