package io.quarry.ql.engine.aggregation;

import io.quarry.ql.exec.MemoryTracker;
import java.util.Arrays;

/**
 * The least or the greatest text each group of a {@code min} or {@code max} has seen, compared
 * lexicographically (by code unit, as {@code values} and {@code sort} compare text): the answer of
 * a group that has seen no number (Splunk's {@code min}/{@code max}: "processes values as numbers
 * if possible", lexicographically when they are not numbers). Made by {@link NumericFunction} only
 * once a text arrives, and sized only up to the highest group that has seen one, so a numeric field
 * pays nothing for it.
 */
final class TextExtremes {
  private final boolean greatest;
  private String[] texts = new String[0];

  TextExtremes(boolean greatest) {
    this.greatest = greatest;
  }

  /**
   * Keeps {@code text} for {@code group} if it is its first or beyond the one kept.
   *
   * @return the bytes of state that grew (the array and the text kept)
   */
  long offer(int group, String text) {
    long grown = 0;
    if (group >= texts.length) {
      int size = Math.max(group + 1, texts.length * 2);
      grown += 8L * (size - texts.length);
      texts = Arrays.copyOf(texts, size);
    }
    String kept = texts[group];
    if (kept == null) {
      texts[group] = text;
      return grown + MemoryTracker.valueBytes(text);
    }
    int order = text.compareTo(kept);
    if (greatest ? order > 0 : order < 0) {
      texts[group] = text;
      grown += Math.max(0, MemoryTracker.valueBytes(text) - MemoryTracker.valueBytes(kept));
    }
    return grown;
  }

  /** The text kept for {@code group}, or null when it has seen none. */
  String get(int group) {
    return group < texts.length ? texts[group] : null;
  }
}
