package io.paramhub.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScenarioOptionTest {

    @Test
    void shouldMakeTheScenarioTheSubcommandWhenGivenAsAnOption() {
        // when
        final String[] args =
                ScenarioOption.asSubcommand("bench", "--workers", "3", "--scenario", "straggler-3x", "--out", "dir");

        // then
        assertThat(args).containsExactly("bench", "straggler-3x", "--workers", "3", "--out", "dir");
    }

    @Test
    void shouldReadTheScenarioWhenGivenWithAnEqualsSign() {
        // when
        final String[] args = ScenarioOption.asSubcommand("bench", "--scenario=round-cost", "--out", "dir");

        // then
        assertThat(args).containsExactly("bench", "round-cost", "--out", "dir");
    }

    @Test
    void shouldLeaveTheCommandLineAsItIsWhenNoScenarioOptionIsGiven() {
        // given
        final String[] subcommand = {"bench", "hybrid", "--out", "dir"};
        final String[] demo = {"demo", "--scenario", "x"};

        // then
        assertThat(ScenarioOption.asSubcommand(subcommand)).containsExactly(subcommand);
        assertThat(ScenarioOption.asSubcommand(demo)).containsExactly(demo);
        assertThat(ScenarioOption.asSubcommand("bench", "--scenario")).containsExactly("bench", "--scenario");
    }
}
