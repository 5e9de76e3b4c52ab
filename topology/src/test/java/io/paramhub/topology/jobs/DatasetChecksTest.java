package io.paramhub.topology.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.paramhub.avro.JobSpec;
import io.paramhub.avro.OptimizerKind;
import io.paramhub.avro.SyncMode;
import io.paramhub.ml.Models;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tests the checks of a job's data set through the providers: forms, and every file under an allowed root. */
class DatasetChecksTest {

    private static final List<Path> ROOTS = List.of(Path.of("/data/sets"));

    @Test
    void shouldAllowEveryFileOfASpecWhenAllLieUnderTheRoots() {
        // when / then
        assertThat(DatasetChecks.problems("csv:/data/sets/wine.csv,label=target,holdout=0.2", ROOTS))
                .isEmpty();
        assertThat(DatasetChecks.problems("csv:/data/sets/a.csv,test=/data/sets/b.csv", ROOTS))
                .isEmpty();
        assertThat(DatasetChecks.problems("idx:/data/sets/x.gz,/data/sets/y.gz", ROOTS))
                .isEmpty();
        assertThat(DatasetChecks.problems("avro:/data/sets/d.avro,features=pixels", ROOTS))
                .isEmpty();
    }

    @Test
    void shouldNameEachFileOutsideTheRootsWhenASpecReadsThere() {
        // when
        final List<String> problems = DatasetChecks.problems(
                "idx:/data/sets/x.gz,/etc/y.gz,test-images=/data/sets/tx.gz,test-labels=../ty.gz", ROOTS);

        // then
        assertThat(problems)
                .containsExactly(
                        "dataset path '/etc/y.gz' is outside the allowed roots [/data/sets] (set PARAMHUB_DATA_ROOTS"
                                + " to allow another)",
                        "dataset path '../ty.gz' must be an absolute path");
    }

    @Test
    void shouldReportTheProvidersProblemWhenASpecIsMalformed() {
        // when / then
        assertThat(DatasetChecks.problems("csv:/data/sets/a.csv,holdout=2", ROOTS))
                .singleElement()
                .asString()
                .contains("holdout must lie between 0 and 1");
        assertThat(DatasetChecks.problems("avro:/data/sets/d.avro", ROOTS))
                .singleElement()
                .asString()
                .contains("features= must name");
        assertThat(DatasetChecks.problems("parquet:/data/sets/d.parquet", ROOTS))
                .singleElement()
                .asString()
                .contains("unknown data spec", "csv:<path>", "avro:<path>");
    }

    @Test
    void shouldAddTheConfiguredRootsWhenTheSystemPropertyNamesThem() {
        // given
        final String before = System.getProperty(DatasetChecks.ROOTS_PROPERTY);
        System.setProperty(DatasetChecks.ROOTS_PROPERTY, "/srv/data:relative/ignored:/mnt/x.csv");
        try {
            // when
            final List<Path> roots = DatasetChecks.defaultRoots();

            // then
            assertThat(roots).contains(Path.of("/usr/share/datasets"), Path.of("/srv/data"), Path.of("/mnt/x.csv"));
            assertThat(roots).doesNotContain(Path.of("relative/ignored"));
            final JobSpec spec = JobSpecs.forModel(Models.create("softmax", 13, 3), 1)
                    .setJob("j")
                    .setDataset("csv:/srv/data/wine.csv")
                    .setSyncMode(SyncMode.BSP)
                    .setOptimizer(OptimizerKind.SGD)
                    .setLearningRate(0.1)
                    .setGlobalBatch(8)
                    .setExpectedWorkers(2)
                    .setEpochs(1)
                    .setSeed(1)
                    .setCreatedAt(Instant.EPOCH)
                    .build();
            assertThat(JobSpecs.problems(spec)).isEmpty();
            assertThat(JobSpecs.problems(JobSpec.newBuilder(spec)
                            .setDataset("csv:/srv/other.csv")
                            .build()))
                    .singleElement()
                    .asString()
                    .contains("'/srv/other.csv' is outside the allowed roots");
        } finally {
            if (before == null) {
                System.clearProperty(DatasetChecks.ROOTS_PROPERTY);
            } else {
                System.setProperty(DatasetChecks.ROOTS_PROPERTY, before);
            }
        }
    }
}
