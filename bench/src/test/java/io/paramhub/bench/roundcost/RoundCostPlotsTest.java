package io.paramhub.bench.roundcost;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RoundCostPlotsTest {

    @Test
    void shouldDrawBothPlotsAsPngImagesWhenGivenTwoModelsThatWroteToDifferentTopics(@TempDir final Path dir)
            throws IOException {
        // when: one model wrote to a changelog, the other to membership
        final Map<String, String> files =
                RoundCostPlots.write(dir, List.of(RoundCostReportTest.softmax(), RoundCostReportTest.smallMlp()));

        // then
        assertThat(files)
                .containsEntry("bytes_per_round", "bytes-per-round.png")
                .containsEntry("round_time", "round-time.png");
        for (final String file : files.values()) {
            assertThat(ImageIO.read(dir.resolve(file).toFile())).as(file).isNotNull();
        }
    }

    @Test
    void shouldListEveryTopicSomeModelWroteToMostFirst() {
        assertThat(RoundCostPlots.topics(List.of(RoundCostReportTest.softmax(), RoundCostReportTest.smallMlp())))
                .containsExactly("paramhub.gradients", "paramhub-aggregator-state-changelog", "paramhub.membership");
    }
}
