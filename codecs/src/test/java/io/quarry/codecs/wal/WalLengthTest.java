package io.quarry.codecs.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.BodyRanges;
import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch's record length counted without encoding it ({@link EncodedBatch#lengthOf}, what a body
 * for several indexes checks against {@code storage.maxBatchBytes} before its first batch is
 * written) is the length the append encodes and checks: byte for byte on random batches of every
 * kind the encoder tells apart, so the size check refuses exactly where the append would; and
 * counting copies no text.
 */
class WalLengthTest {
  private static final String[] PIECES = {
    "GET /a?b=c HTTP/1.1",
    "é",
    "日本",
    "\uD83D\uDE00",
    "\uD800",
    "\uDC00",
    "x",
    "\u007F",
    "\u0080",
    "\u07FF",
    "\u0800",
    "\uFFFF",
    "\n"
  };

  @Test
  void theCountedLengthIsTheEncodedLengthOfEveryKindOfBatch() throws IOException {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int b = 0; b < 400; b++) {
      List<Event> events = randomBatch(random);
      List<Event> batch =
          switch (b % 4) {
            case 0 -> events; // texts as Strings
            case 1 -> BodyRanges.inOneBody(events); // ASCII texts ranges of one body
            case 2 -> farApart(events); // ranges too far apart to share: copied
            default -> events.stream().map(Event::withAsciiBytes).toList(); // each its own array
          };
      // the append encodes the batch with its ASCII bytes known (IndexWrites.add)
      long appended = EncodedBatch.of(batch.stream().map(Event::withAsciiBytes).toList()).length();
      assertThat(EncodedBatch.lengthOf(batch))
          .as("seed %d, batch %d of %d events", seed, b, batch.size())
          .isEqualTo(appended)
          .isEqualTo(EncodedBatch.of(batch).length());
    }
  }

  @Test
  void theCheckRefusesExactlyWhereTheAppendsCheckDoes() throws IOException {
    List<Event> batch = BodyRanges.inOneBody(randomBatch(new Random(7)));
    long length = EncodedBatch.of(batch).length();
    long limit = length + 10; // FirstSeq's vlong may take 10 bytes
    WriteAheadLog.requireFits(EncodedBatch.lengthOf(batch), limit);
    WriteAheadLog.requireFits(EncodedBatch.of(batch), limit);
    assertThatThrownBy(() -> WriteAheadLog.requireFits(EncodedBatch.lengthOf(batch), limit - 1))
        .isInstanceOf(WriteAheadLog.RecordTooLarge.class)
        .hasMessage(
            "a batch of "
                + length
                + " bytes is larger than a write-ahead log record may be ("
                + (limit - 1)
                + " bytes): split the request into smaller ones");
    assertThatThrownBy(() -> WriteAheadLog.requireFits(EncodedBatch.of(batch), limit - 1))
        .isInstanceOf(WriteAheadLog.RecordTooLarge.class);
  }

  @Test
  void countingCopiesNoText() throws IOException {
    // about 8 MB of texts held as Strings (a HEC /event body whose event strings had escapes): the
    // encoding copies each text (twice: its ASCII bytes, then into the record); counting, none
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      events.add(
          new Event(
              i, ("line " + i + " ").repeat(16_000), "h", "s", "st", Map.of("f", List.of("v"))));
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    long length = EncodedBatch.lengthOf(events);
    long counting = threads.getCurrentThreadAllocatedBytes() - before;
    before = threads.getCurrentThreadAllocatedBytes();
    long encoded = EncodedBatch.of(events.stream().map(Event::withAsciiBytes).toList()).length();
    long encoding = threads.getCurrentThreadAllocatedBytes() - before;
    assertThat(length).isEqualTo(encoded).isGreaterThan(7_000_000);
    assertThat(encoding).as("the encoding copies the texts").isGreaterThan(length);
    assertThat(counting).as("counting %d bytes", length).isLessThan(64 * 1024);
  }

  /** Up to 40 events with every kind of text, string and field the grammar writes. */
  private static List<Event> randomBatch(Random random) {
    String longHost = "h".repeat(70) + "é"; // past a short string, and not ASCII
    String[] hosts = {"web-1", "hôte", longHost, "x".repeat(200)};
    List<Event> events = new ArrayList<>();
    int count = random.nextInt(41);
    for (int i = 0; i < count; i++) {
      StringBuilder raw = new StringBuilder();
      boolean ascii = random.nextInt(3) > 0;
      int pieces = random.nextInt(random.nextInt(20) == 0 ? 200 : 10);
      for (int p = 0; p < pieces; p++) {
        raw.append(ascii ? "GET /" + random.nextInt(1000) : PIECES[random.nextInt(PIECES.length)]);
      }
      Map<String, List<String>> fields = new LinkedHashMap<>();
      int fieldCount = random.nextInt(random.nextInt(10) == 0 ? 13 : 3);
      for (int f = 0; f < fieldCount; f++) {
        List<String> values = new ArrayList<>();
        for (int v = 0; v <= random.nextInt(3); v++) {
          values.add(
              random.nextBoolean()
                  ? "v" + random.nextInt(100)
                  : PIECES[random.nextInt(PIECES.length)].repeat(1 + random.nextInt(80)));
        }
        fields.put(f % 4 == 3 ? "nä" + f : "field" + (random.nextBoolean() ? f : f + 20), values);
      }
      long time =
          switch (random.nextInt(3)) {
            case 0 -> random.nextLong();
            case 1 -> -random.nextInt(1000);
            default -> 1_767_225_600_000_000L + i;
          };
      events.add(
          new Event(
              time,
              raw.toString(),
              hosts[random.nextInt(hosts.length)],
              random.nextInt(5) == 0 ? "/var/log/" + i : "/var/log/app",
              "st",
              fields));
    }
    return events;
  }

  /** The ASCII events' texts as ranges of one body, 5,000 bytes apart: too far to share. */
  private static List<Event> farApart(List<Event> events) {
    StringBuilder body = new StringBuilder();
    int[] offsets = new int[events.size()];
    for (int i = 0; i < events.size(); i++) {
      body.append("#".repeat(5_000));
      offsets[i] = body.length();
      body.append(events.get(i).raw());
    }
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    List<Event> held = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      boolean ascii = event.raw().chars().allMatch(c -> c < 0x80);
      boolean before =
          events.subList(0, i).stream().allMatch(e -> e.raw().chars().allMatch(c -> c < 0x80));
      held.add(ascii && before ? BodyRanges.heldAt(event, bytes, offsets[i]) : event);
    }
    return held;
  }
}
