package io.quarry.ql.exec;

import java.util.function.BooleanSupplier;

/**
 * Text handed to {@code java.util.regex} on behalf of a user's regular expression ({@code rex},
 * {@code match()}, {@code replace()}, {@code like()}): every {@value #CHECK_EVERY} characters the
 * engine reads, it asks whether the search must stop (cancelled, finalized, past its time limit)
 * and if so ends the match by throwing {@link Stopped}. A backtracking regex can take exponential
 * time on a few dozen characters, and a running match is otherwise never interrupted; with this a
 * search over its time limit gives its threads back within milliseconds. The caller treats a
 * stopped match as no match; the search itself reports why it stopped.
 *
 * <p>One instance per operator and thread, {@link #reset} per text: no allocation per event.
 */
final class StoppableText implements CharSequence {
  /** Characters read between two checks: a check is a volatile read and {@code nanoTime}. */
  static final int CHECK_EVERY = 1 << 14;

  /** Thrown out of the regex engine when the search must stop; no stack trace, one instance. */
  static final class Stopped extends RuntimeException {
    static final Stopped INSTANCE = new Stopped();

    private Stopped() {
      super("the search stopped during a regular expression match", null, false, false);
    }
  }

  private final BooleanSupplier stop;
  private CharSequence text = "";
  private int reads;

  StoppableText(BooleanSupplier stop) {
    this.stop = stop;
  }

  /** This, now over {@code text}. */
  StoppableText reset(CharSequence text) {
    this.text = text;
    return this;
  }

  @Override
  public char charAt(int index) {
    if (++reads == CHECK_EVERY) {
      reads = 0;
      if (stop.getAsBoolean()) {
        throw Stopped.INSTANCE;
      }
    }
    return text.charAt(index);
  }

  @Override
  public int length() {
    return text.length();
  }

  @Override
  public CharSequence subSequence(int start, int end) {
    return text.subSequence(start, end);
  }

  @Override
  public String toString() {
    return text.toString();
  }
}
