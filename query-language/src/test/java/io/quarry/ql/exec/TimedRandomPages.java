package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random input for the differential tests of the stages that read a time-ordered stream ({@link
 * StatefulStagesTest}, {@link BlockingStagesTest}): 1–5 pages of 1–30 positions, newest first —
 * {@code _time}, {@code n} whole, {@code d} decimal, {@code t} text or numbers, {@code mv} one or
 * two values, {@code extra} on some pages, and with {@code withRaw} a {@code _raw} line on some
 * positions — each page typed as the row collector types its rows.
 */
final class TimedRandomPages {
  private TimedRandomPages() {}

  static List<Page> of(Random random, boolean withRaw) {
    List<Page> pages = new ArrayList<>();
    int count = 1 + random.nextInt(5);
    long time = 1_767_225_600_000_000L;
    for (int i = 0; i < count; i++) {
      List<Map<String, Object>> rows = new ArrayList<>();
      int positions = 1 + random.nextInt(30);
      boolean withExtra = random.nextBoolean();
      for (int p = 0; p < positions; p++) {
        Map<String, Object> values = new LinkedHashMap<>();
        time -= random.nextInt(20) * 1_000_000L; // newest first, as a time-ordered search
        if (random.nextInt(10) > 0) {
          values.put(TimeField.NAME, time);
        }
        if (random.nextInt(8) > 0) {
          values.put("n", (long) random.nextInt(20) - 5);
        }
        if (random.nextInt(8) > 0) {
          values.put("d", random.nextInt(1000) / 8.0);
        }
        if (random.nextInt(6) > 0) {
          values.put(
              "t",
              switch (random.nextInt(3)) {
                case 0 -> Integer.toString(random.nextInt(5));
                case 1 -> "v" + random.nextInt(3);
                default -> random.nextBoolean() ? "Zed" : "alpha";
              });
        }
        if (random.nextInt(3) > 0) {
          values.put(
              "mv",
              random.nextBoolean()
                  ? List.of((long) random.nextInt(4), (long) random.nextInt(4))
                  : (Object) (long) random.nextInt(4));
        }
        if (withRaw && random.nextInt(4) == 0) {
          values.put("_raw", "line " + random.nextInt(100));
        }
        if (withExtra && random.nextBoolean()) {
          values.put("extra", "e" + random.nextInt(3));
        }
        rows.add(values);
      }
      pages.add(TestPages.of(rows));
    }
    return pages;
  }
}
