package io.paramhub.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Tests packing vectors as float32, as bfloat16 and as float64. */
class FloatPackingTest {

    @Test
    void shouldPackBfloat16InHalfTheBytesAndUnpackItExactly() {
        // given: values bfloat16 holds exactly (lower 16 bits zero), signs, zero and infinity included
        final float[] values = {1f, -2.5f, 0f, -0f, Float.intBitsToFloat(0x3DCD0000), Float.POSITIVE_INFINITY};

        // when
        final ByteBuffer packed = FloatPacking.packBfloat16(values);

        // then
        assertThat(packed.remaining()).isEqualTo(values.length * 2);
        assertThat(FloatPacking.countBfloat16(packed)).isEqualTo(values.length);
        assertThat(FloatPacking.unpackBfloat16(packed)).containsExactly(values);
        assertThat(packed.position()).isZero();
    }

    @Test
    void shouldPackTheUpperHalfLittleEndian() {
        // given: 1.0f is 0x3F800000
        final ByteBuffer packed = FloatPacking.packBfloat16(new float[] {1f});

        // then
        assertThat(packed.get(0)).isEqualTo((byte) 0x80);
        assertThat(packed.get(1)).isEqualTo((byte) 0x3F);
    }

    @Test
    void shouldRefuseAnOddNumberOfBytesAsBfloat16() {
        // given
        final ByteBuffer odd = ByteBuffer.wrap(new byte[] {1, 2, 3});

        // then
        assertThat(FloatPacking.countBfloat16(odd)).isEqualTo(-1);
        assertThatThrownBy(() -> FloatPacking.unpackBfloat16(odd)).hasMessageContaining("not a multiple of 2");
    }

    @Test
    void shouldPackASliceAsFloat64LittleEndianAndUnpackItExactly() {
        // given: a value float32 cannot hold, and the slice [1, 3)
        final double[] values = {9, 0.1, -1.0 / 3, 7};

        // when
        final ByteBuffer packed = FloatPacking.packFloat64(values, 1, 2);

        // then
        assertThat(FloatPacking.countFloat64(packed)).isEqualTo(2);
        assertThat(FloatPacking.unpackFloat64(packed)).containsExactly(0.1, -1.0 / 3);
        assertThat(packed.get(0)).isEqualTo((byte) (Double.doubleToRawLongBits(0.1) & 0xFF));
        assertThat(packed.position()).isZero();
    }

    @Test
    void shouldRefuseALengthThatIsNotAMultipleOf8AsFloat64() {
        // given
        final ByteBuffer twelve = ByteBuffer.wrap(new byte[12]);

        // then
        assertThat(FloatPacking.countFloat64(twelve)).isEqualTo(-1);
        assertThatThrownBy(() -> FloatPacking.unpackFloat64(twelve)).hasMessageContaining("not a multiple of 8");
    }
}
