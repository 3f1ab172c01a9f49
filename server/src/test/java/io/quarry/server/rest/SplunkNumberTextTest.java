package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The export endpoint's number text ({@link SplunkNumberText}) is {@link Values#toText}'s, quoted,
 * for every kind of double: whole numbers up to and past 2^63, the plain/E-notation borders at 1e-7
 * and 1e21 and Double.toString's at 1e-3 and 1e7, signed zeros, NaN, infinities, subnormals, and a
 * million random bit patterns and decimal-looking values.
 */
class SplunkNumberTextTest {
  private static void check(SplunkNumberText text, double value) {
    byte[] out = new byte[3 + SplunkNumberText.MAX_BYTES];
    out[0] = 'x'; // written after what is there, up to MAX_BYTES
    int end = text.quoted(value, out, 1);
    assertThat(end - 1).as("bytes of %s", value).isLessThanOrEqualTo(SplunkNumberText.MAX_BYTES);
    assertThat(out[0]).isEqualTo((byte) 'x');
    assertThat(new String(out, 1, end - 1, java.nio.charset.StandardCharsets.US_ASCII))
        .as("text of %s (bits %x)", value, Double.doubleToRawLongBits(value))
        .isEqualTo('"' + Values.toText(value) + '"');
  }

  @Test
  void edgeCases() {
    SplunkNumberText text = new SplunkNumberText();
    List<Double> values =
        new ArrayList<>(
            List.of(
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                -0.5,
                12.5,
                1e-7,
                1e-3, // Double.toString's own E-notation borders: 1e-3 and 1e7
                Math.nextDown(1e-3),
                Math.nextUp(1e-3),
                -Math.nextDown(1e-3),
                Math.nextDown(1e7),
                Math.nextUp(1e7),
                -Math.nextUp(1e7),
                9999999.5,
                10000000.5,
                9.99999999999e-8,
                1.0000000000001e-7,
                1e-8,
                1e20,
                1e21,
                9.999999999999999e20,
                1e22,
                123456789012345678.0,
                0x1p63,
                -0x1p63,
                0x1p63 - 1024,
                -(0x1p63 - 1024),
                0x1p64,
                Double.MAX_VALUE,
                -Double.MAX_VALUE,
                Double.MIN_VALUE,
                Double.MIN_NORMAL,
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                1.0 / 3,
                2.0 / 3,
                0.1 + 0.2,
                100.0 / 6,
                Long.MAX_VALUE / 3.0,
                4.35e-5,
                1234567.125));
    for (int p = -330; p <= 310; p++) {
      values.add(Math.pow(10, p));
      values.add(-Math.pow(10, p) * 1.5);
    }
    for (double value : values) {
      check(text, value);
    }
  }

  @Test
  void randomBitsAndDecimals() {
    SplunkNumberText text = new SplunkNumberText();
    Random random = new Random(1_000_003);
    for (int i = 0; i < 500_000; i++) {
      check(text, Double.longBitsToDouble(random.nextLong()));
    }
    for (int i = 0; i < 500_000; i++) {
      // what metrics look like: averages of a few whole or half values, scaled
      double value =
          (random.nextInt(2_000_001) - 1_000_000)
              / (double) (1 + random.nextInt(12))
              * Math.pow(10, random.nextInt(30) - 15);
      check(text, value);
    }
  }
}
