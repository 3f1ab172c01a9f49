package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.assertj.core.api.Assertions;

/**
 * The event block's randomized conformance suite, in the manner of Lucene's format test cases:
 * random seeds (printed on failure with the line that reproduces it), random event counts, texts
 * (ASCII, multi-byte, empty) and fields (absent, one value, several, repeated), checked against the
 * events themselves; every bit flipped and every prefix is refused. (AssertJ's {@code assertThat}
 * is qualified: LuceneTestCase inherits Hamcrest's.)
 */
public class EventBlockConformanceTest extends LuceneTestCase {
  private static final String[] WORDS = {"GET", "error", "ünïcödé", "日本", "a=b", "", "x y"};

  private static List<Event> randomEvents(Random random, int count) {
    List<Event> events = new ArrayList<>(count);
    long time = random.nextLong(1L << 52);
    for (int i = 0; i < count; i++) {
      StringBuilder raw = new StringBuilder();
      for (int w = random.nextInt(6); w > 0; w--) {
        raw.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      Map<String, List<String>> fields = new LinkedHashMap<>();
      for (String field : new String[] {"status", "user", "tag"}) {
        int values = random.nextInt(4) - 1; // often none
        if (values > 0) {
          List<String> chosen = new ArrayList<>();
          for (int v = 0; v < values; v++) {
            chosen.add(field + random.nextInt(3));
          }
          fields.put(field, chosen);
        }
      }
      events.add(
          new Event(
              time - random.nextInt(1_000_000),
              raw.toString(),
              "host" + random.nextInt(2),
              "src",
              random.nextBoolean() ? "access_combined" : "syslog",
              fields));
    }
    events.sort(Comparator.comparingLong(Event::timeMicros).reversed());
    return events;
  }

  public void testRoundTripsEveryPart() throws Exception {
    Random random = random();
    for (int round = 0; round < 50; round++) {
      int count =
          switch (random.nextInt(4)) {
            case 0 -> random.nextInt(3);
            case 1 -> EventBlockFormat.MAX_EVENTS;
            default -> random.nextInt(300);
          };
      List<Event> events = randomEvents(random, count);
      byte[] bytes = EventBlockWriter.write(events);
      byte[] padded = new byte[bytes.length + 10];
      System.arraycopy(bytes, 0, padded, 5, bytes.length);
      EventBlock block =
          random.nextBoolean()
              ? EventBlock.open(bytes, 0, bytes.length)
              : EventBlock.open(padded, 5, bytes.length);
      Assertions.assertThat(block.count()).isEqualTo(count);
      Assertions.assertThat(block.columnNames()).startsWith("host", "source", "sourcetype");
      // decode the parts in a random order: each stands alone
      for (int i : random.ints(count, 0, Math.max(1, count)).toArray()) {
        Event event = events.get(i);
        Assertions.assertThat(block.raw(i)).isEqualTo(event.raw());
        Assertions.assertThat(block.time(i)).isEqualTo(event.timeMicros());
        Assertions.assertThat(block.column("sourcetype").values(i))
            .containsExactly(event.sourcetype());
        for (String field : new String[] {"status", "user", "tag"}) {
          EventBlock.Column column = block.column(field);
          List<String> expected = event.indexedFields().getOrDefault(field, List.of());
          if (column == null) {
            Assertions.assertThat(events)
                .allMatch(e -> !e.indexedFields().containsKey(field), "no event has " + field);
          } else {
            Assertions.assertThat(column.values(i)).containsExactlyElementsOf(expected);
          }
        }
      }
      Assertions.assertThat(block.column("nosuch")).isNull();
    }
  }

  /**
   * Each event's fields reach their columns whatever their order in the event and whichever
   * instance names them (the writer takes a field to its column by its place in the event before
   * when the name is the same instance): events of shuffled fields, names as equal strings of other
   * instances, more fields than places remembered; columns in first-seen order after the default
   * ones, and an index-time field named as a default field leaves that column the event's own.
   */
  public void testFieldsReachTheirColumnsInAnyOrder() throws Exception {
    Random random = random();
    String[] names = new String[10];
    for (int n = 0; n < names.length; n++) {
      names[n] = "f" + n;
    }
    for (int round = 0; round < 50; round++) {
      int count = 1 + random.nextInt(300);
      List<Event> events = new ArrayList<>();
      List<String> firstSeen = new ArrayList<>(List.of("host", "source", "sourcetype"));
      for (int i = 0; i < count; i++) {
        List<String> chosen = new ArrayList<>(List.of(names));
        java.util.Collections.shuffle(chosen, random);
        Map<String, List<String>> fields = new LinkedHashMap<>();
        for (String name : chosen.subList(0, random.nextInt(names.length + 1))) {
          String key = random.nextInt(4) == 0 ? new String(name) : name;
          fields.put(key, List.of(name + "=" + random.nextInt(3)));
        }
        if (random.nextInt(20) == 0) {
          fields.put("source", List.of("not the event's source"));
        }
        Event event = new Event(1_000_000 - i, "e" + i, "h", "src", "st", fields);
        for (String name : event.indexedFields().keySet()) { // the event's own order
          if (!firstSeen.contains(name)) {
            firstSeen.add(name);
          }
        }
        events.add(event);
      }
      byte[] bytes = EventBlockWriter.write(events);
      EventBlock block = EventBlock.open(bytes, 0, bytes.length);
      Assertions.assertThat(block.columnNames()).containsExactlyElementsOf(firstSeen);
      for (int i = 0; i < count; i++) {
        Event event = events.get(i);
        Assertions.assertThat(block.column("source").values(i)).containsExactly("src");
        for (String name : names) {
          EventBlock.Column column = block.column(name);
          if (column != null) {
            Assertions.assertThat(column.values(i))
                .as("%s of event %d", name, i)
                .containsExactlyElementsOf(event.indexedFields().getOrDefault(name, List.of()));
          }
        }
      }
    }
  }

  /**
   * Version 2: columns named elsewhere keep their name and place but no values; the other columns,
   * the times and the texts read as in version 1; with none elsewhere the block is version 1 byte
   * for byte.
   */
  public void testColumnsHeldElsewhereKeepTheirPlaceOnly() throws Exception {
    Random random = random();
    for (int round = 0; round < 30; round++) {
      List<Event> events = randomEvents(random, random.nextInt(300));
      byte[] whole = EventBlockWriter.write(events);
      Assertions.assertThat(EventBlockWriter.write(events, java.util.Set.of("nosuch")))
          .isEqualTo(whole);
      java.util.Set<String> elsewhere = java.util.Set.of("host", "status");
      byte[] bytes = EventBlockWriter.write(events, elsewhere);
      EventBlock v1 = EventBlock.open(whole, 0, whole.length);
      EventBlock v2 = EventBlock.open(bytes, 0, bytes.length);
      v2.verify();
      Assertions.assertThat(v1.version()).isEqualTo(EventBlockFormat.VERSION);
      Assertions.assertThat(v2.version()).isEqualTo(EventBlockFormat.VERSION_ELSEWHERE);
      Assertions.assertThat(v2.columnNames()).isEqualTo(v1.columnNames());
      if (events.size() >= 20) { // a handful of events may hold less than the version's marks
        Assertions.assertThat(bytes.length).as("%d events", events.size()).isLessThan(whole.length);
      }
      for (String name : v1.columnNames()) {
        Assertions.assertThat(v2.hasColumn(name)).isTrue();
        Assertions.assertThat(v2.isElsewhere(name)).isEqualTo(elsewhere.contains(name));
        if (elsewhere.contains(name)) {
          assertThatThrownBy(() -> v2.column(name)).isInstanceOf(IllegalStateException.class);
          continue;
        }
        for (int i = 0; i < events.size(); i++) {
          Assertions.assertThat(v2.column(name).values(i)).isEqualTo(v1.column(name).values(i));
        }
      }
      for (int i = 0; i < events.size(); i++) {
        Assertions.assertThat(v2.raw(i)).isEqualTo(v1.raw(i));
        Assertions.assertThat(v2.time(i)).isEqualTo(v1.time(i));
      }
      for (int bit = 0; bit < bytes.length * 8; bit += 1 + random.nextInt(64)) {
        byte[] flipped = bytes.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        assertThatThrownBy(() -> EventBlock.open(flipped, 0, flipped.length))
            .isInstanceOf(CorruptBlockException.class);
      }
    }
  }

  public void testEveryFlippedBitAndEveryPrefixIsRefused() throws Exception {
    byte[] bytes = EventBlockWriter.write(randomEvents(random(), 1 + random().nextInt(20)));
    for (int bit = 0; bit < bytes.length * 8; bit++) {
      byte[] flipped = bytes.clone();
      flipped[bit / 8] ^= (byte) (1 << (bit % 8));
      assertThatThrownBy(() -> EventBlock.open(flipped, 0, flipped.length))
          .as("bit %d", bit)
          .isInstanceOf(CorruptBlockException.class);
    }
    for (int length = 0; length < bytes.length; length++) {
      int cut = length;
      assertThatThrownBy(() -> EventBlock.open(bytes, 0, cut))
          .as("prefix of %d bytes", cut)
          .isInstanceOf(CorruptBlockException.class);
    }
  }

  /**
   * {@code openVerified} (bytes a journal block's CRC32C already covers) reads what {@code open}
   * reads and still refuses a cut block or another version; only the block's own checksum is left
   * to the journal's.
   */
  public void testOpenVerifiedReadsAsOpenAndChecksAllButTheChecksum() throws Exception {
    Random random = random();
    List<Event> events = randomEvents(random, 1 + random.nextInt(200));
    byte[] bytes = EventBlockWriter.write(events);
    EventBlock checked = EventBlock.open(bytes, 0, bytes.length);
    EventBlock verified = EventBlock.openVerified(bytes, 0, bytes.length);
    Assertions.assertThat(verified.count()).isEqualTo(checked.count());
    Assertions.assertThat(verified.columnNames()).isEqualTo(checked.columnNames());
    for (int i = 0; i < events.size(); i++) {
      Assertions.assertThat(verified.raw(i)).isEqualTo(events.get(i).raw());
      Assertions.assertThat(verified.time(i)).isEqualTo(events.get(i).timeMicros());
    }
    byte[] damagedChecksum = bytes.clone();
    damagedChecksum[bytes.length - 1] ^= 1;
    assertThatThrownBy(() -> EventBlock.open(damagedChecksum, 0, damagedChecksum.length))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("checksum");
    Assertions.assertThat(
            EventBlock.openVerified(damagedChecksum, 0, damagedChecksum.length).count())
        .isEqualTo(events.size());
    byte[] otherVersion = bytes.clone();
    otherVersion[0] = 99;
    assertThatThrownBy(() -> EventBlock.openVerified(otherVersion, 0, otherVersion.length))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("version");
    assertThatThrownBy(() -> EventBlock.openVerified(bytes, 0, 3))
        .isInstanceOf(CorruptBlockException.class);
  }

  public void testRefusesWhatItCannotHold() {
    List<Event> tooMany = randomEvents(random(), EventBlockFormat.MAX_EVENTS + 1);
    assertThatThrownBy(() -> EventBlockWriter.write(tooMany))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 4096 events");
    List<Event> oldestFirst = new ArrayList<>(randomEvents(random(), 5));
    oldestFirst.sort(Comparator.comparingLong(Event::timeMicros));
    if (oldestFirst.get(0).timeMicros() != oldestFirst.get(4).timeMicros()) {
      assertThatThrownBy(() -> EventBlockWriter.write(oldestFirst))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("newest first");
    }
  }

  public void testVerifyPassesWhatTheWriterWrites() throws Exception {
    for (int round = 0; round < 20; round++) {
      byte[] bytes = EventBlockWriter.write(randomEvents(random(), random().nextInt(50)));
      EventBlock.open(bytes, 0, bytes.length).verify();
    }
  }

  /**
   * Blocks with a good checksum that break the grammar (what a writer bug would leave, and what
   * only {@code quarry fsck} decodes far enough to see): {@code open} takes them, {@code verify}
   * names the broken part.
   */
  public void testVerifyFindsWhatTheChecksumCannot() throws Exception {
    // two events at 100 and 95 (deltas 0, 5), texts "a" and "bc", no columns
    EventBlock good = opened(forged(new long[] {0, 5}, new int[] {1, 2}, "abc"));
    good.verify();
    Assertions.assertThat(good.raw(1)).isEqualTo("bc");
    EventBlock unordered = opened(forged(new long[] {5, 0}, new int[] {1, 2}, "abc"));
    assertThatThrownBy(unordered::verify)
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("newest first");
    EventBlock shortTexts = opened(forged(new long[] {0, 5}, new int[] {1, 1}, "abc"));
    assertThatThrownBy(shortTexts::verify)
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("do not fill");
  }

  private static EventBlock opened(byte[] bytes) throws CorruptBlockException {
    return EventBlock.open(bytes, 0, bytes.length);
  }

  /** A block of the given time deltas and text lengths over {@code texts}, checksum made good. */
  private static byte[] forged(long[] deltas, int[] lengths, String texts) throws Exception {
    org.apache.lucene.store.ByteBuffersDataOutput times =
        new org.apache.lucene.store.ByteBuffersDataOutput();
    for (long delta : deltas) {
      times.writeVLong(delta);
    }
    org.apache.lucene.store.ByteBuffersDataOutput raw =
        new org.apache.lucene.store.ByteBuffersDataOutput();
    for (int length : lengths) {
      raw.writeVInt(length);
    }
    byte[] text = texts.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    raw.writeBytes(text, text.length);
    org.apache.lucene.store.ByteBuffersDataOutput block =
        new org.apache.lucene.store.ByteBuffersDataOutput();
    block.writeByte(EventBlockFormat.VERSION);
    block.writeVInt(deltas.length);
    block.writeZLong(100);
    block.writeVInt(0); // columns
    block.writeVInt((int) times.size());
    block.writeVInt((int) (times.size() + raw.size()));
    block.writeBytes(times.toArrayCopy(), (int) times.size());
    block.writeBytes(raw.toArrayCopy(), (int) raw.size());
    byte[] body = block.toArrayCopy();
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    return java.nio.ByteBuffer.allocate(body.length + Integer.BYTES)
        .put(body)
        .putInt((int) crc.getValue())
        .array();
  }
}
