package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Events {@code "event <i>"} at {@code i} milliseconds, host h, source s, sourcetype st. */
final class NumberedEvents {
  private NumberedEvents() {}

  /** Events {@code from} to {@code from + count - 1}. */
  static List<Event> events(int from, int count) {
    List<Event> events = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      events.add(new Event(i * 1000L, "event " + i, "h", "s", "st", Map.of()));
    }
    return events;
  }
}
