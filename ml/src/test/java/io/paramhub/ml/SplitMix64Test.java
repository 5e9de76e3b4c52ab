package io.paramhub.ml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SplitMix64Test {

    @Test
    void shouldDrawReferenceSequenceWhenSeeded() {
        // given: the reference implementation's (Vigna's splitmix64.c) first draws from seed 1234567
        final SplitMix64 random = new SplitMix64(1234567);

        // when / then
        assertThat(random.nextLong()).isEqualTo(6457827717110365317L);
        assertThat(random.nextLong()).isEqualTo(3203168211198807973L);
        assertThat(Long.toUnsignedString(random.nextLong())).isEqualTo("9817491932198370423");
        assertThat(random.nextLong()).isEqualTo(4593380528125082431L);
        assertThat(Long.toUnsignedString(random.nextLong())).isEqualTo("16408922859458223821");
    }

    @Test
    void shouldScaleDrawByUnsignedHighProductWhenDrawingIndex() {
        // given: the same draws, each times the bound, the high 64 bits
        final SplitMix64 random = new SplitMix64(1234567);

        // when / then: 6457827717110365317 * 10 >> 64 = 3; 3203168211198807973 * 1000 >> 64 = 173;
        // 9817491932198370423 (top bit set) * 7 >> 64 = 3
        assertThat(random.nextIndex(10)).isEqualTo(3);
        assertThat(random.nextIndex(1000)).isEqualTo(173);
        assertThat(random.nextIndex(7)).isEqualTo(3);
    }

    @Test
    void shouldRefuseEmptyRangeWhenDrawingIndex() {
        assertThatThrownBy(() -> new SplitMix64(1).nextIndex(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
