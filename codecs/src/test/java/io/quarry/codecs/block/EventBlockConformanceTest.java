package io.quarry.codecs.block;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.BodyRanges;
import io.quarry.codecs.store.Event;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.assertj.core.api.Assertions;

/**
 * The event block's randomized conformance suite, in the manner of Lucene's format test cases:
 * random seeds (printed on failure with the line that reproduces it), random event counts, texts
 * (ASCII, multi-byte, empty) and fields (absent, one value, several, repeated), checked against the
 * events themselves; every bit flipped and every prefix is refused; the header's record of the
 * texts' bytes against the bytes, and blocks written before it (no record) against those written
 * since. (AssertJ's {@code assertThat} is qualified: LuceneTestCase inherits Hamcrest's.)
 */
public class EventBlockConformanceTest extends LuceneTestCase {
  private static final String[] WORDS = {"GET", "error", "ünïcödé", "日本", "a=b", "", "x y"};

  private static List<Event> randomEvents(Random random, int count) {
    return randomEvents(random, count, WORDS.length);
  }

  /** Random events whose texts take words from the first {@code words} of {@link #WORDS}. */
  private static List<Event> randomEvents(Random random, int count, int words) {
    List<Event> events = new ArrayList<>(count);
    long time = random.nextLong(1L << 52);
    for (int i = 0; i < count; i++) {
      StringBuilder raw = new StringBuilder();
      for (int w = random.nextInt(6); w > 0; w--) {
        raw.append(WORDS[random.nextInt(words)]).append(' ');
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

  /**
   * The header records whether every text is ASCII, as the texts' bytes are (the expectation from
   * the bytes, not from the lengths the writer goes by): random blocks of ASCII texts only, of
   * texts where one event in many has a multi-byte character, of lone surrogates (written as {@code
   * ?}); the same blocks given the ASCII texts' bytes are the same bytes; {@code verify} passes
   * them all.
   */
  public void testHeaderRecordsWhetherEveryTextIsAscii() throws Exception {
    Random random = random();
    int ascii = 0;
    int notAscii = 0;
    for (int round = 0; round < 60; round++) {
      int count = random.nextInt(4) == 0 ? random.nextInt(3) : 1 + random.nextInt(300);
      List<Event> events = new ArrayList<>(randomEvents(random, count, 2)); // GET, error
      if (count > 0 && round % 3 != 0) { // one odd text among the ASCII ones
        int at = random.nextInt(count);
        String odd =
            switch (random.nextInt(4)) {
              case 0 -> "caf\u00e9";
              case 1 -> "\uD83D\uDE00 smile";
              case 2 -> "lone \uD800 surrogate"; // encoded as '?': ASCII bytes
              default -> "x\u0080";
            };
        Event was = events.get(at);
        events.set(
            at,
            new Event(
                was.timeMicros(),
                random.nextBoolean() ? odd : was.raw() + odd,
                was.host(),
                was.source(),
                was.sourcetype(),
                was.indexedFields()));
      }
      boolean expected = true;
      for (Event event : events) {
        for (byte b : event.raw().getBytes(StandardCharsets.UTF_8)) {
          expected &= b >= 0;
        }
      }
      byte[] bytes = EventBlockWriter.write(events);
      EventBlock block = EventBlock.open(bytes, 0, bytes.length);
      Assertions.assertThat(block.texts())
          .as("round %d", round)
          .isEqualTo(expected ? EventBlock.Texts.ALL_ASCII : EventBlock.Texts.SOME_NOT_ASCII);
      block.verify();
      // the same events holding their ASCII texts as ranges of one body write the same block
      Assertions.assertThat(EventBlockWriter.write(BodyRanges.inOneBody(events), Set.of()))
          .isEqualTo(bytes);
      ascii += expected ? 1 : 0;
      notAscii += expected ? 0 : 1;
    }
    Assertions.assertThat(ascii).isPositive();
    Assertions.assertThat(notAscii).isPositive();
  }

  /**
   * Blocks written one after another into one reused array (left longer than the next block and
   * holding the previous block's bytes) are byte for byte the blocks written into new arrays, and
   * read back from their slice of it: with and without columns held elsewhere, the default ones
   * among them (whose values the writer then does not gather).
   */
  public void testBlocksInAReusedArrayAreTheBlocksInNewOnes() throws Exception {
    Random random = random();
    org.apache.lucene.util.BytesRefBuilder reused = new org.apache.lucene.util.BytesRefBuilder();
    reused.grow(1 << 12);
    random.nextBytes(reused.bytes()); // what a block must not depend on
    List<Set<String>> elsewheres =
        List.of(Set.of(), Set.of("host", "status"), Set.of("host", "source", "sourcetype", "uri"));
    for (int round = 0; round < 60; round++) {
      List<Event> events = randomEvents(random, random.nextInt(300), 1 + random.nextInt(7));
      Set<String> elsewhere = elsewheres.get(random.nextInt(elsewheres.size()));
      byte[] fresh = EventBlockWriter.write(events, elsewhere);
      org.apache.lucene.util.BytesRef slice = EventBlockWriter.write(events, elsewhere, reused);
      Assertions.assertThat(slice.bytes).as("round %d", round).isSameAs(reused.bytes());
      Assertions.assertThat(
              java.util.Arrays.copyOfRange(slice.bytes, slice.offset, slice.offset + slice.length))
          .as("round %d", round)
          .isEqualTo(fresh);
      EventBlock block = EventBlock.open(slice.bytes, slice.offset, slice.length);
      block.verify();
      Assertions.assertThat(block.count()).isEqualTo(events.size());
    }
  }

  /**
   * A block written before the header recorded its texts (the header its version alone: made here
   * from a block written now, and forged byte by byte) reads exactly as the block written now, its
   * texts {@code UNRECORDED}, and passes {@code verify} with ASCII texts or not.
   */
  public void testBlocksWithoutTheRecordReadAsBefore() throws Exception {
    Random random = random();
    for (int round = 0; round < 30; round++) {
      List<Event> events = randomEvents(random, random.nextInt(200), 1 + random.nextInt(7));
      java.util.Set<String> elsewhere = random.nextBoolean() ? Set.of() : Set.of("host", "status");
      byte[] bytes = EventBlockWriter.write(events, elsewhere);
      byte[] old = withHeader(bytes, bytes[0] & 0x3F);
      EventBlock now = EventBlock.open(bytes, 0, bytes.length);
      EventBlock before = EventBlock.open(old, 0, old.length);
      Assertions.assertThat(now.texts()).isNotEqualTo(EventBlock.Texts.UNRECORDED);
      Assertions.assertThat(before.texts()).isEqualTo(EventBlock.Texts.UNRECORDED);
      Assertions.assertThat(before.version()).isEqualTo(now.version());
      Assertions.assertThat(before.count()).isEqualTo(now.count());
      Assertions.assertThat(before.columnNames()).isEqualTo(now.columnNames());
      for (int i = 0; i < events.size(); i++) {
        Assertions.assertThat(before.raw(i)).isEqualTo(now.raw(i)).isEqualTo(events.get(i).raw());
        Assertions.assertThat(before.rawOffset(i)).isEqualTo(now.rawOffset(i));
        Assertions.assertThat(before.time(i)).isEqualTo(now.time(i));
        for (String name : now.columnNames()) {
          if (!now.isElsewhere(name)) {
            Assertions.assertThat(before.column(name).values(i))
                .isEqualTo(now.column(name).values(i));
          }
        }
      }
      before.verify();
    }
    EventBlock forged = opened(forged(new long[] {0, 5}, new int[] {1, 2}, "a\u00e9"));
    Assertions.assertThat(forged.texts()).isEqualTo(EventBlock.Texts.UNRECORDED);
    forged.verify();
    Assertions.assertThat(forged.raw(1)).isEqualTo("\u00e9");
  }

  /**
   * A header that records the texts wrongly under a good checksum (a writer's bug): {@code open}
   * takes it, {@code verify} refuses it; a header recording both is refused on open. Without the
   * block's own checksum ({@code openVerified}, the journal's covering it), one flipped bit of the
   * header never turns a block with a non-ASCII text into one recorded all ASCII: the two records
   * differ in two bits.
   */
  public void testAWrongRecordIsRefused() throws Exception {
    Random random = random();
    List<Event> mixed = new ArrayList<>(randomEvents(random, 1 + random.nextInt(50), 2));
    long oldest = mixed.get(mixed.size() - 1).timeMicros();
    mixed.add(new Event(oldest, "d\u00e9j\u00e0 vu", "h", "s", "st", Map.of()));
    byte[] notAscii = EventBlockWriter.write(mixed);
    byte[] ascii = EventBlockWriter.write(randomEvents(random, 1 + random.nextInt(50), 2));
    Assertions.assertThat(opened(ascii).texts()).isEqualTo(EventBlock.Texts.ALL_ASCII);
    EventBlock lying = opened(withHeader(notAscii, (notAscii[0] & 0x3F) | 0x80));
    Assertions.assertThat(lying.texts()).isEqualTo(EventBlock.Texts.ALL_ASCII);
    assertThatThrownBy(lying::verify)
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("ALL_ASCII");
    EventBlock wrong = opened(withHeader(ascii, (ascii[0] & 0x3F) | 0x40));
    assertThatThrownBy(wrong::verify)
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("SOME_NOT_ASCII");
    assertThatThrownBy(() -> opened(withHeader(ascii, (ascii[0] & 0x3F) | 0xC0)))
        .isInstanceOf(CorruptBlockException.class)
        .hasMessageContaining("both");
    for (int bit = 0; bit < 8; bit++) {
      byte[] flipped = notAscii.clone();
      flipped[0] ^= (byte) (1 << bit);
      try {
        EventBlock read = EventBlock.openVerified(flipped, 0, flipped.length);
        Assertions.assertThat(read.texts())
            .as("bit %d", bit)
            .isNotEqualTo(EventBlock.Texts.ALL_ASCII);
      } catch (CorruptBlockException refused) {
        // refused: as good an answer
      }
    }
  }

  /** {@code bytes} with header byte {@code header} and its checksum made good again. */
  private static byte[] withHeader(byte[] bytes, int header) {
    byte[] changed = bytes.clone();
    changed[0] = (byte) header;
    int body = changed.length - Integer.BYTES;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(changed, 0, body);
    java.nio.ByteBuffer.wrap(changed, body, Integer.BYTES).putInt((int) crc.getValue());
    return changed;
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
