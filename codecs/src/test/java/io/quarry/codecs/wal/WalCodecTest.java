package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.BodyRanges;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.SmallFieldMap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * The log's records (format version 2): strings are Lucene's {@code writeString} bytes, whichever
 * encoder made them; the grammar is {@link WalCodec}'s; a batch decodes to its events whether their
 * texts were ranges of one body (written from it) or copied.
 */
class WalCodecTest {
  private static final String[] PIECES = {
    "GET /a?b=c HTTP/1.1",
    "?",
    "é",
    "ü?",
    "日本",
    "\uD83D\uDE00",
    "\uD800",
    "\uDC00",
    "x",
    " ",
    "\u007F",
    "\u0080",
    "\u07FF",
    "\u0800",
    "\uFFFF"
  };

  @Test
  void stringsAreWrittenAsLuceneWritesThem() throws IOException {
    Random random = new Random(42);
    List<String> texts = new ArrayList<>(List.of("", "?", "\uD800?", "?\uDBFF", "plain ascii"));
    for (int i = 0; i < 2_000; i++) {
      StringBuilder text = new StringBuilder();
      int pieces = random.nextInt(i % 100 == 0 ? 400 : 8);
      for (int p = 0; p < pieces; p++) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      texts.add(text.toString());
    }
    for (String text : texts) {
      ByteBuffersDataOutput ours = new ByteBuffersDataOutput();
      int written = WalOutput.writeString(ours, text);
      ByteBuffersDataOutput lucene = new ByteBuffersDataOutput();
      lucene.writeString(text);
      assertThat(ours.toArrayCopy())
          .as(() -> text.chars().mapToObj(c -> Integer.toHexString(c)).toList().toString())
          .isEqualTo(lucene.toArrayCopy());
      assertThat(written).isEqualTo(new BytesRef(text).length);
    }
    // the log's own output (short ASCII strings written straight into its array, a string that
    // turns out not to be ASCII written by the general path): all texts back to back, from a
    // small array that has to grow
    WalOutput array = new WalOutput(0);
    ByteBuffersDataOutput lucene = new ByteBuffersDataOutput();
    for (String text : texts) {
      WalOutput.writeString(array, text);
      lucene.writeString(text);
    }
    assertThat(Arrays.copyOf(array.bytes, array.length)).isEqualTo(lucene.toArrayCopy());
  }

  @Test
  void textsInOneBodyAndTextsCopiedDecodeToTheSameEvents() throws IOException {
    Random random = new Random(23);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      StringBuilder raw = new StringBuilder();
      int pieces = random.nextInt(i % 50 == 0 ? 300 : 40);
      for (int p = 0; p < pieces; p++) {
        raw.append(random.nextInt(3) == 0 ? PIECES[random.nextInt(PIECES.length)] : "GET /a");
      }
      String value = random.nextBoolean() ? "v" + i : PIECES[random.nextInt(PIECES.length)];
      events.add(new Event(i, raw.toString(), "h", "s", "st", Map.of("f", List.of(value))));
    }
    EncodedBatch plain = EncodedBatch.of(events);
    EncodedBatch mixed = EncodedBatch.of(BodyRanges.inOneBody(events)); // some texts not ASCII
    List<Event> ascii = new ArrayList<>();
    for (Event event : events) {
      if (io.quarry.codecs.store.AsciiText.bytesOf(event.raw()) != null) {
        ascii.add(event);
      }
    }
    EncodedBatch oneBody = EncodedBatch.of(BodyRanges.inOneBody(ascii));
    // an unpaired surrogate reads back as U+FFFD, as Lucene's writeString encodes it
    List<String> expected = events.stream().map(e -> new BytesRef(e.raw()).utf8ToString()).toList();
    assertThat(decode(plain, 7).events().stream().map(Event::raw).toList()).isEqualTo(expected);
    assertThat(decode(mixed, 7)).isEqualTo(decode(plain, 7));
    assertThat(decode(oneBody, 9)).isEqualTo(decode(EncodedBatch.of(ascii), 9));
    assertThat(decode(oneBody, 9).events().stream().map(Event::raw).toList())
        .isEqualTo(ascii.stream().map(Event::raw).toList());
    assertThat(mixed.rawBytes()).isEqualTo(plain.rawBytes());
    // the one body's texts are written from the body: not in the encoded part
    long asciiBytes = ascii.stream().mapToLong(Event::rawLength).sum();
    assertThat(oneBody.rawBytes()).isEqualTo(asciiBytes);
    assertThat(oneBody.pieces()[0].remaining()).isLessThan((int) asciiBytes);
    assertThat(oneBody.pieces()[1].remaining()).isEqualTo((int) (asciiBytes + ascii.size() - 1));
  }

  @Test
  void textsFarApartInTheBodyAreCopiedNotTheBytesBetween() throws IOException {
    byte[] body = ("first\n" + "#".repeat(100_000) + "\nlast").getBytes(StandardCharsets.US_ASCII);
    List<Event> events =
        List.of(
            Event.ofAscii(1, body, 0, 5, null, "h", "s", "st", Map.of()),
            Event.ofAscii(2, body, body.length - 4, 4, null, "h", "s", "st", Map.of()));
    EncodedBatch batch = EncodedBatch.of(events);
    assertThat(batch.pieces()[1].remaining()).isZero();
    assertThat(batch.length()).isLessThan(100);
    assertThat(decode(batch, 3).events().stream().map(Event::raw).toList())
        .containsExactly("first", "last");
  }

  @Test
  void eventsRoundTripAndCountTheirRawBytes() throws IOException {
    List<Event> events =
        List.of(
            new Event(1, "a?b", "h", "s", "st", Map.of()),
            new Event(-7, "\u00e9 \uD83D\uDE00", "h", "s", "st", Map.of("f", List.of("1", "?"))));
    EncodedBatch batch = EncodedBatch.of(events);
    assertThat(batch.rawBytes()).isEqualTo(3 + 2 + 1 + 4);
    WalCodec.Batch decoded = decode(batch, 1L << 40);
    assertThat(decoded.firstSeq()).isEqualTo(1L << 40);
    assertThat(decoded.events()).isEqualTo(events);
  }

  @Test
  void aRecordIsTheBytesOfTheGrammar() throws IOException {
    // the same instances from event to event, equal texts in other instances, non-ASCII ones,
    // names changing place, more fields than remembered slots
    Random random = new Random(5);
    String[] hosts = {"web-1", "h\u00e9te", new String("web-1"), PIECES[4]};
    String[] names = new String[12];
    for (int n = 0; n < names.length; n++) {
      names[n] = n % 5 == 4 ? "f\u00fc" + n : "field" + n;
    }
    String source = "/var/log/" + "x".repeat(70); // longer than a short string
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Map<String, List<String>> fields = new java.util.LinkedHashMap<>();
      int count = random.nextInt(i % 40 == 0 ? 12 : 5);
      int first = random.nextInt(3) == 0 ? random.nextInt(names.length - count + 1) : 0;
      for (int f = 0; f < count; f++) {
        fields.put(names[first + f], List.of("v" + random.nextInt(3), PIECES[random.nextInt(4)]));
      }
      events.add(
          new Event(
              i * 1_000L,
              i % 7 == 0 ? "caf\u00e9 " + i : "GET /" + i,
              hosts[random.nextInt(3) == 0 ? random.nextInt(hosts.length) : 0],
              random.nextInt(10) == 0 ? "s" + i : source,
              "access_combined",
              fields));
    }
    for (boolean inOneBody : new boolean[] {false, true}) {
      List<Event> batch = inOneBody ? BodyRanges.inOneBody(events) : events;
      // some texts are not ASCII, so even in one body they are copied
      assertThat(bytes(EncodedBatch.of(batch)))
          .as("in one body: " + inOneBody)
          .isEqualTo(grammarOf(events));
    }
  }

  /**
   * The record {@link WalCodec}'s grammar makes of {@code events}, their texts copied, written
   * field by field with Lucene's {@code DataOutput} (not by the encoder).
   */
  private static byte[] grammarOf(List<Event> events) throws IOException {
    List<String> strings = new ArrayList<>(); // distinct, in the order first named
    for (Event event : events) {
      for (String text : List.of(event.host(), event.source(), event.sourcetype())) {
        if (!strings.contains(text)) {
          strings.add(text);
        }
      }
      for (String name : event.indexedFields().keySet()) {
        if (!strings.contains(name)) {
          strings.add(name);
        }
      }
    }
    ByteBuffersDataOutput grammar = new ByteBuffersDataOutput();
    grammar.writeVInt(events.size());
    grammar.writeVInt(strings.size());
    for (String text : strings) {
      grammar.writeString(text);
    }
    ByteBuffersDataOutput texts = new ByteBuffersDataOutput();
    for (Event event : events) {
      byte[] raw = event.raw().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      texts.writeBytes(raw, raw.length);
      grammar.writeZLong(event.timeMicros());
      grammar.writeVInt(0); // copied texts: back to back
      grammar.writeVInt(raw.length);
      grammar.writeVInt(strings.indexOf(event.host()));
      grammar.writeVInt(strings.indexOf(event.source()));
      grammar.writeVInt(strings.indexOf(event.sourcetype()));
      grammar.writeVInt(event.indexedFields().size());
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        grammar.writeVInt(strings.indexOf(field.getKey()));
        grammar.writeVInt(field.getValue().size());
        for (String value : field.getValue()) {
          grammar.writeString(value);
        }
      }
    }
    grammar.copyBytes(texts.toDataInput(), texts.size());
    return grammar.toArrayCopy();
  }

  /**
   * An event's fields read by index ({@link SmallFieldMap}) or through the map ({@code
   * Map.copyOf}'s, past {@link SmallFieldMap#MAX_FIELDS}) give the grammar's bytes, and the counted
   * length is theirs: names equal but other instances from one event to the next (each slot's
   * identity check misses and the lookup answers), more fields than {@link WalStrings#NAME_SLOTS},
   * fields that differ from event to event, several values.
   */
  @Test
  void fieldsReadByIndexOrByMapGiveTheGrammarsBytes() throws IOException {
    Random random = new Random(48);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      int count = random.nextInt(4) == 0 ? WalStrings.NAME_SLOTS + 1 + random.nextInt(3) : 4;
      int first = random.nextInt(3);
      @SuppressWarnings("unchecked")
      Map.Entry<String, List<String>>[] entries = new Map.Entry[count];
      for (int f = 0; f < count; f++) {
        String name = new String("field" + (first + f)); // a new instance each event
        List<String> values =
            random.nextInt(5) == 0
                ? List.of("v" + i, PIECES[random.nextInt(PIECES.length)])
                : List.of(PIECES[random.nextInt(PIECES.length)]);
        entries[f] = Map.entry(name, values);
      }
      Map<String, List<String>> fields =
          count <= SmallFieldMap.MAX_FIELDS
              ? SmallFieldMap.ofEntries(entries)
              : Map.ofEntries(entries); // Map.copyOf's kind of map: read through its iterator
      events.add(
          new Event(i * 1_000L, "GET /" + i, new String("web-1"), "access.log", "t", fields));
    }
    assertThat(events.get(0).indexedFields()).isInstanceOf(SmallFieldMap.class);
    byte[] expected = grammarOf(events);
    assertThat(bytes(EncodedBatch.of(events))).isEqualTo(expected);
    assertThat(EncodedBatch.lengthOf(events)).isEqualTo(expected.length);
  }

  @Test
  void aReusedArrayGivesEachBatchItsOwnBytes() throws IOException {
    // batches of falling and rising sizes through arrays given back, naming the same host, source
    // and field-name instances as the batch before (whose bytes the array held)
    Random random = new Random(11);
    String host = "web-1";
    String name = "clientip";
    java.util.Set<byte[]> seen =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    int kept = 0;
    for (int b = 0; b < 30; b++) {
      int count = b % 3 == 0 ? 1 + random.nextInt(2_000) : 1 + random.nextInt(20);
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        String raw = random.nextInt(50) == 0 ? "caf\u00e9 " + i : "GET /" + random.nextInt(1 << 20);
        Map<String, List<String>> fields =
            random.nextBoolean() ? Map.of(name, List.of("10.0.0." + i % 7)) : Map.of();
        events.add(new Event(i, raw, random.nextInt(9) == 0 ? "h" + b : host, "s", "st", fields));
      }
      List<Event> held = BodyRanges.inOneBody(events);
      EncodedBatch fresh = EncodedBatch.of(held);
      EncodedBatch reused = EncodedBatch.reusing(held);
      assertThat(bytes(reused)).isEqualTo(bytes(fresh));
      assertThat(reused.rawBytes()).isEqualTo(fresh.rawBytes());
      kept += seen.add(reused.pieces()[0].array()) ? 0 : 1;
      reused.giveBack();
      fresh.giveBack(); // not reused: nothing to give, nothing kept
    }
    assertThat(kept).isGreaterThan(10); // the small batches after a large one reuse its array
  }

  /** The batch's record bytes after {@code FirstSeq}. */
  static byte[] bytes(EncodedBatch batch) {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    for (java.nio.ByteBuffer piece : batch.pieces()) {
      byte[] bytes = new byte[piece.remaining()];
      piece.get(bytes);
      out.writeBytes(bytes, bytes.length);
    }
    byte[] all = out.toArrayCopy();
    assertThat(all).hasSize((int) batch.length());
    return all;
  }

  /** The batch decoded as a record of {@code firstSeq}. */
  static WalCodec.Batch decode(EncodedBatch batch, long firstSeq) throws IOException {
    ByteBuffersDataOutput record = new ByteBuffersDataOutput();
    record.writeVLong(firstSeq);
    byte[] bytes = bytes(batch);
    record.writeBytes(bytes, bytes.length);
    return WalCodec.decode(record.toArrayCopy());
  }
}
