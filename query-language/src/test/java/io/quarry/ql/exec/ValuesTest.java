package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ValuesTest {
  /** What parseNumber means: whatever Double.parseDouble reads from decimal characters only. */
  private static double reference(String text) {
    if (text.isEmpty() || text.length() > 40 || !text.matches("[0-9.eE+-]+")) {
      return Double.NaN;
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }

  @Test
  void numbersAndLookAlikes() {
    assertThat(Values.parseNumber("404")).isEqualTo(404.0);
    assertThat(Values.parseNumber("-1.5e3")).isEqualTo(-1500.0);
    assertThat(Values.parseNumber(".5")).isEqualTo(0.5);
    assertThat(Values.parseNumber("211.115.52.20")).isNaN();
    assertThat(Values.parseNumber("1.2.3")).isNaN();
    assertThat(Values.parseNumber("1e")).isNaN();
    assertThat(Values.parseNumber("-")).isNaN();
    assertThat(Values.parseNumber("1d")).isNaN();
  }

  @Test
  void agreesWithDoubleParseDoubleOnRandomText() {
    String alphabet = "0123.eE+-x";
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 50_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(8);
      for (int c = 0; c < length; c++) {
        text.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = text.toString();
      assertThat(Double.valueOf(Values.parseNumber(s)))
          .as(s)
          .isEqualTo(Double.valueOf(reference(s)));
    }
  }
}
