package io.quarry.server.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultLineEncoder} writes the bytes Jackson's generator writes for the same lines (what
 * the export endpoint answered before it had an encoder of its own): random pages of strings with
 * every kind of character that JSON escapes or encodes in several bytes, multivalues, nulls,
 * doubles of every shape, longs and timestamps.
 */
class ResultLineEncoderTest {
  private static final JsonFactory JSON = new JsonFactory();

  @Test
  void linesAreJacksonsBytes() throws IOException {
    Random random = new Random(25);
    for (int round = 0; round < 200; round++) {
      Page page = randomPage(random);
      ResultLineEncoder encoder = new ResultLineEncoder(16);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      long offset = random.nextInt(1000);
      for (int position = 0; position < page.positionCount(); position++) {
        boolean last = position == page.positionCount() - 1;
        encoder.row(page, position, offset + position, last);
        jackson(expected, page, position, offset + position, last);
      }
      assertEquals(
          expected.toString(StandardCharsets.UTF_8),
          new String(encoder.bytes(), 0, encoder.size(), StandardCharsets.UTF_8),
          "round " + round);
    }
  }

  /** The lines as Jackson writes them: numbers as Splunk's text, raw; the rest as JSON strings. */
  private static void jackson(
      ByteArrayOutputStream out, Page page, int position, long offset, boolean last)
      throws IOException {
    SplunkNumberText numbers = new SplunkNumberText();
    try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
      json.writeStartObject();
      json.writeBooleanField("preview", false);
      json.writeNumberField("offset", offset);
      if (last) {
        json.writeBooleanField("lastrow", true);
      }
      json.writeObjectFieldStart("result");
      for (int column = 0; column < page.schema().size(); column++) {
        Block block = page.block(column);
        String name = page.schema().column(column).name();
        if (block instanceof DoubleBlock doubles && block.getValueCount(position) == 1) {
          byte[] text = new byte[SplunkNumberText.MAX_BYTES];
          int end =
              numbers.quoted(doubles.getDoubleValue(block.getFirstValueIndex(position)), text, 0);
          json.writeFieldName(name);
          json.writeRawValue(new String(text, 0, end, java.nio.charset.StandardCharsets.US_ASCII));
          continue;
        }
        Object value = ResultValues.splunk(block, position);
        if (value instanceof String text) {
          json.writeFieldName(name);
          json.writeString(text);
        } else if (value instanceof List<?> multivalue) {
          json.writeFieldName(name);
          json.writeStartArray();
          for (Object one : multivalue) {
            json.writeString((String) one);
          }
          json.writeEndArray();
        }
      }
      json.writeEndObject();
      json.writeEndObject();
    }
    out.write('\n');
  }

  private static Page randomPage(Random random) {
    int rows = 1 + random.nextInt(20);
    List<Schema.Column> columns = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    int count = 1 + random.nextInt(6);
    for (int c = 0; c < count; c++) {
      String name = c + randomText(random, 4);
      switch (random.nextInt(4)) {
        case 0 -> {
          columns.add(new Schema.Column(name, DataType.STRING));
          BytesBlock.Builder values = BytesBlock.builder(rows);
          for (int r = 0; r < rows; r++) {
            int kind = random.nextInt(5);
            if (kind == 0) {
              values.appendNull();
            } else if (kind == 1) {
              values.beginPositionEntry();
              for (int v = 0; v < 2 + random.nextInt(3); v++) {
                values.append(randomText(random, 6));
              }
              values.endPositionEntry();
            } else {
              values.append(randomText(random, 12));
            }
          }
          blocks.add(values.build());
        }
        case 1 -> {
          columns.add(new Schema.Column(name, DataType.DOUBLE));
          DoubleBlock.Builder values = DoubleBlock.builder(rows);
          for (int r = 0; r < rows; r++) {
            values.appendNullable(random.nextInt(8) == 0 ? null : randomDouble(random));
          }
          blocks.add(values.build());
        }
        case 2 -> {
          columns.add(new Schema.Column(name, DataType.LONG));
          LongBlock.Builder values = LongBlock.builder(DataType.LONG, rows);
          for (int r = 0; r < rows; r++) {
            long value =
                switch (random.nextInt(4)) {
                  case 0 -> Long.MIN_VALUE;
                  case 1 -> Long.MAX_VALUE;
                  case 2 -> random.nextInt(21) - 10;
                  default -> random.nextLong();
                };
            values.appendNullable(random.nextInt(8) == 0 ? null : value);
          }
          blocks.add(values.build());
        }
        default -> {
          columns.add(new Schema.Column(name, DataType.TIMESTAMP));
          LongBlock.Builder values = LongBlock.builder(DataType.TIMESTAMP, rows);
          for (int r = 0; r < rows; r++) {
            values.appendNullable(
                random.nextInt(8) == 0 ? null : random.nextLong(4_000_000_000_000_000L));
          }
          blocks.add(values.build());
        }
      }
    }
    return new Page(new Schema(columns), blocks);
  }

  private static double randomDouble(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> Double.NaN;
      case 1 -> random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      case 2 -> random.nextInt(2001) - 1000;
      case 3 -> random.nextDouble() * Math.pow(10, random.nextInt(60) - 30);
      case 4 -> -random.nextDouble() * 1e25;
      case 5 -> Double.longBitsToDouble(random.nextLong());
      default -> (random.nextInt(200_000) - 100_000) / 100.0;
    };
  }

  /** Text with ASCII, quotes, backslashes, control characters, 2- and 3-byte chars, emoji. */
  private static String randomText(Random random, int maxLength) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(maxLength + 1);
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(8)) {
        case 0 -> text.append((char) random.nextInt(0x20));
        case 1 -> text.append("\"\\/\u007f".charAt(random.nextInt(4)));
        case 2 -> text.append((char) (0x80 + random.nextInt(0x780)));
        case 3 -> text.append((char) (0x800 + random.nextInt(0xD000)));
        case 4 -> text.appendCodePoint(0x1F600 + random.nextInt(80));
        case 5 -> text.append((char) (0xE000 + random.nextInt(0x1FFE)));
        default -> text.append((char) (0x20 + random.nextInt(0x5F)));
      }
    }
    return text.toString();
  }
}
