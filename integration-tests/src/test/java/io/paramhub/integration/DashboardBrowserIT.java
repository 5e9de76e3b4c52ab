package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.paramhub.cli.ParamHubCli;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The dashboard as a person sees it: {@code paramhub demo --dashboard} with an injected straggler (orchestrator
 * on, four workers, worker 3 three times slower), opened in headless Chromium, Debian's {@code chromium} driven
 * through Debian's {@code chromedriver} (both installed by {@code scripts/install-deps}; a missing one fails the
 * test). Saves what the browser shows to {@code target/dashboard/dashboard.png}.
 */
@Tag("integration")
class DashboardBrowserIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "dashboard");
    private static final Duration LIVE = Duration.ofSeconds(90);
    /** Four passes over the default linear problem (4096 samples, batch 128): 128 iterations, time to look. */
    private static final int EPOCHS = 4;

    private static final long ITERATIONS = EPOCHS * 4096 / 128;

    @Test
    void shouldListEveryWorkerFlagOnlyTheStragglerAndShowTheModelAdvance(@TempDir final Path dir) throws Exception {
        // given: the browser the project's set-up installs, and a demo run whose dashboard it can reach
        assertThat(CHROMIUM).as("Chromium, installed by scripts/install-deps").isExecutable();
        assertThat(CHROMEDRIVER)
                .as("chromedriver, installed by scripts/install-deps")
                .isExecutable();
        final int port = freePort();
        final String url = "http://127.0.0.1:" + port + "/dashboard";
        final ExecutorService demo = Executors.newSingleThreadExecutor();
        final Future<Integer> exit = demo.submit(() -> ParamHubCli.execute(
                "demo",
                "--model",
                "linear",
                "--workers",
                "4",
                "--epochs",
                Integer.toString(EPOCHS),
                "--policy",
                "paramhub",
                "--slowdown",
                "3:3",
                "--dashboard",
                "--dashboard-port",
                Integer.toString(port),
                "--job",
                "dashboard-it"));
        WebDriver browser = null;
        boolean saved = false;
        final int code;
        try {
            await().alias("the dashboard answers")
                    .atMost(LIVE)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> exit.isDone() || answers(url));
            assertThat(exit.isDone())
                    .as("the demo ended before its dashboard was up")
                    .isFalse();

            // when
            browser = chromium(dir.resolve("chromium-profile"));
            browser.get(url);

            // then
            final JavascriptExecutor page = (JavascriptExecutor) browser;
            await().alias("every worker listed")
                    .atMost(LIVE)
                    .until(
                            () -> List.copyOf(statusByWorker(page).keySet()),
                            workers -> workers.equals(List.of("worker-000", "worker-001", "worker-002", "worker-003")));
            await().alias("the straggler, and only it, flagged")
                    .atMost(LIVE)
                    .until(
                            () -> statusByWorker(page),
                            status -> status.get("worker-003").equals("straggler")
                                    && status.entrySet().stream()
                                            .filter(e -> !e.getKey().equals("worker-003"))
                                            .allMatch(e -> e.getValue().equals("ok")));
            await().alias("a model version shown").atMost(LIVE).until(() -> modelVersion(page) >= 0);
            final long first = modelVersion(page);
            await().alias("the model version shown advances past " + first)
                    .atMost(LIVE)
                    .until(() -> modelVersion(page) > first);
            // for the screenshot, a third of the job in: curves with some history, the plan applied
            await().alias("a third of the job, a test metric and a plan shown")
                    .atMost(LIVE)
                    .until(() -> modelVersion(page) >= ITERATIONS / 3
                            && text(page, "test-metric").matches("\\d+\\.\\d+")
                            && !text(page, "commands").contains("no command issued yet"));
            assertThat(text(page, "job-line")).contains("dashboard-it").contains("4 workers");
            assertThat(text(page, "orchestrator-mode")).isEqualTo("planning");
            screenshot(browser, "dashboard.png");
            saved = true;
        } finally {
            if (browser != null) {
                if (!saved) {
                    screenshot(browser, "dashboard-at-failure.png");
                }
                browser.quit();
            }
            code = exit.get(3, TimeUnit.MINUTES);
            demo.shutdown();
        }
        assertThat(code).as("the demo's exit code").isZero();
    }

    /** Chromium without a sandbox (tests run as root), first-run screens or any traffic of its own. */
    private static WebDriver chromium(final Path profile) {
        final ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--window-size=1280,1100");
        // the driver named, so that Selenium Manager never looks for one on the network
        final ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** Each worker row's name and status badge, as the page shows them; read in one go, between redraws. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> statusByWorker(final JavascriptExecutor page) {
        final List<List<String>> rows = (List<List<String>>)
                page.executeScript(
                        "return Array.from(document.querySelectorAll('#workers tbody tr[data-worker]'))"
                                + ".map(row => [row.cells[0].innerText.trim(), row.cells[row.cells.length - 1].innerText.trim()]);");
        return rows.stream().collect(Collectors.toMap(row -> row.get(0), row -> row.get(1), (a, b) -> a, TreeMap::new));
    }

    private static long modelVersion(final JavascriptExecutor page) {
        final String shown = text(page, "model-version");
        return shown.matches("\\d+") ? Long.parseLong(shown) : -1;
    }

    private static String text(final JavascriptExecutor page, final String id) {
        return String.valueOf(page.executeScript("return document.getElementById(arguments[0]).innerText;", id))
                .trim();
    }

    private static void screenshot(final WebDriver browser, final String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name), ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES));
    }

    private static boolean answers(final String url) {
        try {
            final HttpResponse<Void> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url))
                                    .timeout(Duration.ofSeconds(2))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (final IOException e) {
            return false;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
