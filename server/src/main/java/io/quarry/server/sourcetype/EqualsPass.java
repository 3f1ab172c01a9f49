package io.quarry.server.sourcetype;

import java.util.function.IntConsumer;

/**
 * The search for the {@code =} of a region of bytes that {@link KeyPlaces#reset} runs over each
 * block of a search (those that may end its key or start a quoted value; {@link KeyPlaces} checks
 * the rest): with the Vector API when the JVM has it ({@code --add-modules jdk.incubator.vector},
 * as {@code quarry} starts the server), a word at a time otherwise. Chosen once, when this class
 * loads: a JVM started without the module (an embedder, a test harness, {@code java -cp} by hand)
 * never loads the vector class; nor does one without C2 or with narrow vectors, where the vector
 * code would be the slower.
 */
abstract class EqualsPass {
  /** The pass this JVM runs. */
  static final EqualsPass CHOSEN = choose();

  /**
   * Calls {@code found}, in order, with each index {@code at} of {@code bytes[from, end)} holding
   * an {@code =} that may end a key or start a quoted value: {@code bytes[at - 1] == before} (with
   * {@code at - 1 >= from}) or {@code bytes[at + 1] == '"'} (with {@code at + 1 < end}).
   */
  abstract void run(byte[] bytes, int from, int end, byte before, IntConsumer found);

  /** Whether the {@code =} at {@code at} is one {@link #run} reports. */
  static boolean reported(byte[] bytes, int from, int end, byte before, int at) {
    return (at > from && bytes[at - 1] == before) || (at + 1 < end && bytes[at + 1] == '"');
  }

  /** What runs, for the log and the server info: {@code vector 512-bit}, {@code scalar}. */
  @Override
  public abstract String toString();

  private static EqualsPass choose() {
    String unusable = io.quarry.codecs.vector.VectorSupport.unusable();
    if (unusable != null) {
      return new ScalarEqualsPass(unusable); // e.g. uncompiled vector code boxes: far slower
    }
    EqualsPass vector = VectorEqualsPass.ifWider(); // typed as this class: loads nothing more
    return vector != null ? vector : new ScalarEqualsPass("vectors under 128 bits");
  }
}
