package io.quarry.server.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The audit record's decimals ({@code total_run_time}, a time range's {@code api_et}/{@code
 * api_lt}) are what {@code String.format} wrote for them before: {@code %.3f} of whole milliseconds
 * in seconds, {@code %.6f} of microseconds.
 */
class SearchAuditDecimalTest {
  @Test
  void decimalsAreWhatTheFormatterWrote() {
    Random random = new Random(19);
    for (int i = 0; i < 100_000; i++) {
      long units =
          switch (random.nextInt(4)) {
            case 0 -> random.nextInt(2_001) - 1_000;
            case 1 -> random.nextLong(1L << 40) - (1L << 39);
            case 2 -> random.nextInt(1_000_000);
            default -> random.nextLong(1L << 52) - (1L << 51);
          };
      assertEquals(
          String.format(Locale.ROOT, "%.3f", units / 1e3),
          SearchAudit.decimal(units, 3),
          "milliseconds " + units);
      assertEquals(
          String.format(Locale.ROOT, "%.6f", units / 1e6),
          SearchAudit.decimal(units, 6),
          "microseconds " + units);
    }
  }
}
