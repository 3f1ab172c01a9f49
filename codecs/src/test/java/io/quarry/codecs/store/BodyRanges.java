package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: events as the breaker hands them, each ASCII text a range of one shared body (a
 * line feed between texts, a few bytes before the first), so a writer that read a range from the
 * array's start or past its end would write other bytes.
 */
public final class BodyRanges {
  private BodyRanges() {}

  /** The events, every ASCII text moved into one body array; others as they are. */
  public static List<Event> inOneBody(List<Event> events) {
    StringBuilder body = new StringBuilder("xx\n");
    int[] offsets = new int[events.size()];
    for (int i = 0; i < events.size(); i++) {
      offsets[i] = body.length();
      if (AsciiText.bytesOf(events.get(i).raw()) != null) {
        body.append(events.get(i).raw()).append('\n');
      }
    }
    byte[] bytes = body.append("yy").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<Event> held = new ArrayList<>(events.size());
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      held.add(AsciiText.bytesOf(event.raw()) == null ? event : heldAt(event, bytes, offsets[i]));
    }
    return held;
  }

  /**
   * {@code event} (an ASCII text) with its text held as the range of {@code body} at {@code
   * offset}.
   */
  public static Event heldAt(Event event, byte[] body, int offset) {
    return Event.ofAscii(
        event.timeMicros(),
        body,
        offset,
        event.raw().length(),
        null,
        event.host(),
        event.source(),
        event.sourcetype(),
        event.indexedFields());
  }
}
