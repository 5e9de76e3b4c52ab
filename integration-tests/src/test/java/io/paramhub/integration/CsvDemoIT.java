package io.paramhub.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.paramhub.cli.ParamHubCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code paramhub demo --dataset csv:...} end to end on the embedded broker, and a bad file refused before it. */
@Tag("integration")
class CsvDemoIT {

    private static final String[] SPECIES = {"virginica", "setosa", "versicolor"};

    /** 150 rows of 4 features: three well-separated clusters, far from 0 and of unequal spread, named by strings. */
    static Path clusters(final Path dir) throws IOException {
        final Random random = new Random(5);
        final StringBuilder csv = new StringBuilder("length,width,height,weight,species\n");
        for (int i = 0; i < 150; i++) {
            final int kind = i % 3;
            csv.append(String.format(
                    Locale.ROOT,
                    "%.4f,%.4f,%.4f,%.4f,%s%n",
                    100 + 10 * kind + random.nextGaussian(),
                    0.01 * kind + 0.001 * random.nextGaussian(),
                    5 - 3 * kind + random.nextGaussian(),
                    1000 + random.nextGaussian(),
                    SPECIES[kind]));
        }
        return Files.writeString(dir.resolve("clusters.csv"), csv);
    }

    @Test
    void shouldTrainOnACsvFileAndReportItsClassesAndStandardisation(@TempDir final Path dir) throws Exception {
        // given
        final Path file = clusters(dir);
        final Path report = dir.resolve("r.json");

        // when
        final int code = ParamHubCli.execute(
                "demo",
                "--dataset",
                "csv:" + file + ",label=species,holdout=0.2,seed=3",
                "--model",
                "softmax",
                "--workers",
                "2",
                "--batch",
                "16",
                "--epochs",
                "8",
                "--report",
                report.toString());

        // then
        assertThat(code).isZero();
        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.get("final_test_accuracy").asDouble()).isGreaterThanOrEqualTo(0.9);
        final JsonNode data = json.get("data");
        assertThat(data.get("train_samples").asInt()).isEqualTo(120);
        assertThat(data.get("test_samples").asInt()).isEqualTo(30);
        assertThat(data.get("class_labels").toString()).isEqualTo("[\"setosa\",\"versicolor\",\"virginica\"]");
        assertThat(data.get("standardization").get("mean")).hasSize(4);
        assertThat(data.get("standardization").get("mean").get(3).asDouble()).isBetween(999.0, 1001.0);
        assertThat(json.get("dead_letters").asLong()).isZero();
    }

    @Test
    void shouldStopBeforeTrainingWithOneLineNamingFileLineAndColumnWhenACellIsBad(@TempDir final Path dir)
            throws IOException {
        // given
        final Path file = Files.writeString(dir.resolve("bad.csv"), "a,b,label\n1,2,x\n3,four,y\n");

        // when
        final CliRun outcome = CliRun.of("demo", "--dataset", "csv:" + file + ",label=label", "--model", "softmax");

        // then
        assertThat(outcome.code()).isEqualTo(2);
        assertThat(outcome.err())
                .isEqualTo(
                        "paramhub: " + file + ":3:2: non-numeric cell 'four' in column 'b'" + System.lineSeparator());
    }

    @Test
    void shouldRefuseABatchLargerThanTheTrainingSetBeforeStartingABroker(@TempDir final Path dir) throws IOException {
        // given: 120 training rows
        final Path file = clusters(dir);

        // when
        final CliRun outcome = CliRun.of(
                "demo", "--dataset", "csv:" + file + ",label=species", "--model", "softmax", "--batch", "128");

        // then
        assertThat(outcome.code()).isEqualTo(1);
        assertThat(outcome.err()).contains("--batch 128 is more than the 120 training samples");
    }
}
