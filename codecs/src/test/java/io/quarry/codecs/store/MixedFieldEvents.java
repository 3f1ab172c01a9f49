package io.quarry.codecs.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random events whose index-time fields vary from event to event, as a store must keep them through
 * flushes, merges and compactions: {@code region} on some events only, and {@code region=kv<k>} in
 * the text of others, some both (the index-time value is the event's); {@code team} multivalued;
 * {@code zone} sparse (one event in ~300); {@code dc} on every event of long runs (blocks wholly
 * with it, blocks wholly without, blocks of both); {@code sess} on about half, never in any text
 * (blocks coding "no value"); {@code one}, the same value on every event; {@code bytes}, a number;
 * two sourcetypes and three hosts mixed within a block. The text of event {@code i} starts with
 * {@code n=<i>}, unique.
 */
final class MixedFieldEvents {
  /** The index-time fields the events may have. */
  static final List<String> FIELDS =
      List.of("region", "team", "zone", "dc", "sess", "one", "bytes");

  /** The declared types: {@code bytes} a long, the others keywords. */
  static final Map<String, IndexedFieldType> TYPES = Map.of("bytes", IndexedFieldType.LONG);

  private MixedFieldEvents() {}

  /** Events {@code from} to {@code from + count - 1} of {@code seed}, event {@code i} at i ms. */
  static List<Event> events(long seed, int from, int count) {
    List<Event> events = new ArrayList<>(count);
    for (int i = from; i < from + count; i++) {
      events.add(event(seed, i));
    }
    return events;
  }

  /** Event {@code i} of {@code seed}. */
  static Event event(long seed, int i) {
    Random random = new Random(seed * 1_000_003L + i);
    Map<String, List<String>> fields = new LinkedHashMap<>();
    StringBuilder text = new StringBuilder("n=").append(i);
    text.append(random.nextBoolean() ? " level=INFO" : " level=WARN");
    if (random.nextInt(4) == 0) {
      fields.put("region", List.of(random.nextBoolean() ? "us" : "eu"));
    }
    if (random.nextInt(5) == 0) {
      text.append(" region=kv").append(random.nextInt(3));
    }
    if (random.nextInt(9) == 0) {
      fields.put("team", List.of("a", "b"));
    } else if (random.nextInt(8) == 0) {
      text.append(" team=t1 team=t2");
    }
    if (random.nextInt(300) == 0) {
      fields.put("zone", List.of("z" + random.nextInt(2)));
    }
    if ((i / 700) % 2 == 0) {
      fields.put("dc", List.of("dc" + random.nextInt(3)));
    }
    if (random.nextBoolean()) {
      fields.put("sess", List.of("s" + random.nextInt(40)));
    }
    fields.put("one", List.of("x"));
    if (random.nextInt(3) == 0) {
      fields.put("bytes", List.of(Long.toString(random.nextInt(100_000))));
    }
    String sourcetype = random.nextInt(3) == 0 ? "web" : "app";
    return new Event(i * 1000L, text.toString(), "h" + random.nextInt(3), "s", sourcetype, fields);
  }

  /** The event number a text of {@link #event} starts with. */
  static int number(String raw) {
    int end = raw.indexOf(' ');
    return Integer.parseInt(raw.substring(2, end < 0 ? raw.length() : end));
  }
}
