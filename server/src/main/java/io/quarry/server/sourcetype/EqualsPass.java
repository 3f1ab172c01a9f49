package io.quarry.server.sourcetype;

import java.util.function.IntConsumer;

/**
 * The search for every {@code =} of a region of bytes that {@link KeyPlaces#reset} runs over each
 * block of a search: with the Vector API when the JVM has it ({@code --add-modules
 * jdk.incubator.vector}, as {@code quarry} starts the server), a word at a time otherwise. Chosen
 * once, when this class loads: a JVM started without the module (an embedder, a test harness,
 * {@code java -cp} by hand) never loads the vector class.
 */
abstract class EqualsPass {
  /** The pass this JVM runs. */
  static final EqualsPass CHOSEN = choose();

  /**
   * Calls {@code found} with each index of {@code bytes[from, end)} holding {@code =}, in order.
   */
  abstract void run(byte[] bytes, int from, int end, IntConsumer found);

  /** What runs, for the log and the server info: {@code vector 512-bit}, {@code scalar}. */
  @Override
  public abstract String toString();

  private static EqualsPass choose() {
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      EqualsPass vector = VectorEqualsPass.ifWider(); // typed as this class: loads nothing more
      if (vector != null) {
        return vector;
      }
    }
    return new ScalarEqualsPass();
  }
}
