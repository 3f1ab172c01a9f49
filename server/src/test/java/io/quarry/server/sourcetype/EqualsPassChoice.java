package io.quarry.server.sourcetype;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM of its own for {@link EqualsPassTest}: prints the pass it chose and one value found with it
 * (nothing here may load the vector class when the JVM lacks its module, unless asked to load it
 * first).
 */
final class EqualsPassChoice {
  private EqualsPassChoice() {}

  /** {@code vector-first}: the vector class is the first of the passes this JVM initializes. */
  public static void main(String[] args) throws ClassNotFoundException {
    if (args.length > 0 && args[0].equals("vector-first")) {
      Class.forName(EqualsPassChoice.class.getPackageName() + ".VectorEqualsPass");
    }
    KeyPlaces places = new KeyPlaces("K".getBytes(StandardCharsets.ISO_8859_1));
    byte[] text = "a=\"x\" K=v1 b=2 ".repeat(10).getBytes(StandardCharsets.ISO_8859_1);
    places.reset(text, 0, text.length);
    List<String> values = new ArrayList<>();
    places.values(
        text, 6, 5, (s, e) -> values.add(new String(text, s, e - s, StandardCharsets.ISO_8859_1)));
    System.out.println(KeyPlaces.byteScan() + " " + values);
  }
}
