package io.paramhub.orchestrator.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard loads test sets only from what the orchestrator is configured to read. */
class TestSetsTest {

    @Test
    void shouldRefuseADirectoryOutsideTheDataDirsAndSayWhyWhenNoneIsConfigured() {
        // given
        final TestSets testSets = TestSets.loading();

        // when
        final TestSets.Lookup lookup = testSets.forDataset("fashion-mnist:/etc");

        // then
        assertThat(lookup.test()).isNull();
        assertThat(lookup.unavailable())
                .isEqualTo("no test set: fashion-mnist:/etc reads /etc, outside the directories the dashboard may "
                        + "read (paramhub.dashboard.data.dirs: none)");
    }

    @Test
    void shouldTryADirectoryUnderAConfiguredDataDir(@TempDir final Path dataDir) {
        // given
        final TestSets testSets = TestSets.loading(List.of(dataDir));
        final String dataset = "fashion-mnist:" + dataDir.resolve("fashion");

        // when
        final TestSets.Lookup lookup = testSets.forDataset(dataset);

        // then: allowed, so it was read, and its files are missing
        assertThat(lookup.unavailable()).startsWith("no test set: Fashion-MNIST file");
    }

    @Test
    void shouldRefuseAPathThatLeavesAConfiguredDataDir(@TempDir final Path dataDir) {
        // given
        final TestSets testSets = TestSets.loading(List.of(dataDir));

        // when
        final TestSets.Lookup lookup = testSets.forDataset("fashion-mnist:" + dataDir + "/../../etc");

        // then
        assertThat(lookup.unavailable()).contains("outside the directories the dashboard may read");
    }

    @Test
    void shouldLoadGeneratedDataWithNoDataDir() {
        // given
        final TestSets testSets = TestSets.loading();

        // when
        final TestSets.Lookup lookup = testSets.forDataset("linear:n=64,d=3");

        // then
        assertThat(lookup.unavailable()).isNull();
        assertThat(lookup.test().size()).isPositive();
    }
}
