package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.Values;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Encodes result pages as an Apache Arrow IPC stream: the schema, then one record batch per page,
 * each handed out as bytes as soon as it is encoded. Types map one to one: long → Int64, double →
 * Float64, boolean → Bool, string → Utf8, timestamp → Timestamp(µs, UTC); a column with several
 * values in some row of the sample is a List of that type (child field {@code item}, as pyarrow
 * names it), where a single value is a list of one. Buffers may be zstd-compressed (Arrow's own
 * per-buffer compression, which pyarrow reads transparently).
 *
 * <p>A string column whose sampled rows (the {@link StreamSchema} sample) repeat their values (at
 * most half as many distinct values as rows) is dictionary-encoded for the whole stream: Int32
 * indices into a dictionary of each page's distinct values, sent as a dictionary batch before each
 * record batch whose dictionary differs from the previous one (a replacement dictionary, which
 * stream readers — pyarrow, Arrow Java — apply to the batches after it). Per-page dictionaries keep
 * memory bounded whatever the number of distinct values in the whole result.
 *
 * <p>An Arrow stream has one schema: {@link StreamSchema}'s, fixed from the result's first rows;
 * what a later page brings that it cannot hold (a new column, a value of another type) is counted
 * there and reported, never written as something it is not.
 */
final class ArrowStreamEncoder implements Closeable {
  private final BufferAllocator allocator = new RootAllocator();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
  private final boolean zstd;
  private Schema schema;
  private StreamSchema sample;
  private VectorSchemaRoot root;
  private ArrowStreamWriter writer;
  private final DictionaryProvider.MapDictionaryProvider dictionaries =
      new DictionaryProvider.MapDictionaryProvider();

  /** Per column: its dictionary's values vector, or null when the column is not encoded. */
  private VarCharVector[] dictionaryValues;

  /** Per column: whether it is a list column (multivalues). */
  private boolean[] lists;

  ArrowStreamEncoder(boolean zstd) {
    this.zstd = zstd;
  }

  /**
   * Starts the stream with the schema {@code sample} fixed and encodes the pages it held; returns
   * the bytes to send.
   */
  byte[] start(StreamSchema sample) throws IOException {
    this.sample = sample;
    start(sample.schema(), sample.pages());
    for (Page page : sample.pages()) {
      encode(page);
    }
    sample.release();
    return drain();
  }

  /** Encodes one page after {@link #start}; returns the bytes to send. */
  byte[] page(Page page) throws IOException {
    encode(page);
    return drain();
  }

  private void encode(Page page) throws IOException {
    int rows = page.positionCount();
    root.allocateNew();
    for (int column = 0; column < schema.size(); column++) {
      FieldVector vector = root.getVector(column);
      int source = page.schema().indexOf(schema.column(column).name());
      Block block = source < 0 ? null : page.block(source);
      DataType type = schema.column(column).type();
      if (dictionaryValues[column] != null) {
        encodeDictionary((IntVector) vector, dictionaryValues[column], block, rows);
      } else if (lists[column]) {
        for (int row = 0; row < rows; row++) {
          setList((ListVector) vector, type, block, row);
        }
      } else {
        for (int row = 0; row < rows; row++) {
          set(vector, type, block, row);
        }
      }
      vector.setValueCount(rows);
    }
    for (int column = 0; column < page.schema().size(); column++) {
      String name = page.schema().column(column).name();
      if (schema.indexOf(name) < 0) {
        sample.dropped(name, page.block(column));
      }
    }
    root.setRowCount(rows);
    writer.writeBatch();
  }

  /** Ends the stream (after {@link #start}); returns its last bytes. */
  byte[] finish() throws IOException {
    writer.end();
    return drain();
  }

  /**
   * Fills a column's indices and its dictionary (the page's distinct values in order of first
   * appearance); the writer sends the dictionary when it differs from the last one sent.
   */
  private void encodeDictionary(IntVector indices, VarCharVector values, Block block, int rows) {
    values.allocateNew();
    Map<String, Integer> ids = new HashMap<>();
    for (int row = 0; row < rows; row++) {
      if (block == null || block.isNull(row)) {
        indices.setNull(row);
        continue;
      }
      if (block.getValueCount(row) > 1) {
        indices.setNull(row); // the sample had no multivalue in this column
        sample.nulledMultivalue();
        continue;
      }
      String text = ResultValues.text(block, row);
      Integer id = ids.get(text);
      if (id == null) {
        id = ids.size();
        ids.put(text, id);
        values.setSafe(id, text.getBytes(StandardCharsets.UTF_8));
      }
      indices.setSafe(row, id);
    }
    values.setValueCount(ids.size());
  }

  private void start(Schema fixed, List<Page> pages) throws IOException {
    schema = fixed;
    dictionaryValues = new VarCharVector[fixed.size()];
    lists = new boolean[fixed.size()];
    Set<String> multivalued = sample.multivalued();
    List<Field> fields = new ArrayList<>();
    for (int column = 0; column < fixed.size(); column++) {
      Schema.Column declared = fixed.column(column);
      FieldType type = FieldType.nullable(arrowType(declared.type()));
      if (multivalued.contains(declared.name())) {
        lists[column] = true;
        Field item = new Field("item", type, null);
        fields.add(
            new Field(declared.name(), FieldType.nullable(ArrowType.List.INSTANCE), List.of(item)));
        continue;
      }
      if (declared.type() == DataType.STRING && repeats(declared.name(), pages)) {
        DictionaryEncoding encoding =
            new DictionaryEncoding(column, false, new ArrowType.Int(32, true));
        VarCharVector values =
            new VarCharVector(
                new Field(declared.name(), FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
                allocator);
        dictionaryValues[column] = values;
        dictionaries.put(new Dictionary(values, encoding));
        // in memory the column holds the indices; the writer puts Utf8 in the stream's schema
        type = new FieldType(true, encoding.getIndexType(), encoding);
      }
      fields.add(new Field(declared.name(), type, null));
    }
    root =
        VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(fields), allocator);
    writer =
        new ArrowStreamWriter(
            root,
            dictionaries,
            Channels.newChannel(buffer),
            IpcOption.DEFAULT,
            zstd ? CommonsCompressionFactory.INSTANCE : NoCompressionCodec.Factory.INSTANCE,
            zstd ? CompressionUtil.CodecType.ZSTD : CompressionUtil.CodecType.NO_COMPRESSION);
    writer.start();
  }

  /** Whether a column has at most half as many distinct values as the sample has rows. */
  private static boolean repeats(String name, List<Page> pages) {
    int rows = 0;
    for (Page page : pages) {
      rows += page.positionCount();
    }
    if (rows < 2) {
      return false;
    }
    int limit = rows / 2;
    Set<String> distinct = new HashSet<>();
    for (Page page : pages) {
      Block block = page.block(name);
      for (int row = 0; block != null && row < block.positionCount(); row++) {
        if (!block.isNull(row)
            && distinct.add(ResultValues.text(block, row))
            && distinct.size() > limit) {
          return false;
        }
      }
    }
    return true;
  }

  private static ArrowType arrowType(DataType type) {
    return switch (type) {
      case LONG -> new ArrowType.Int(64, true);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case STRING -> ArrowType.Utf8.INSTANCE;
      case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
    };
  }

  /**
   * Writes one position into a column of the fixed schema: a string column takes any value as text;
   * a typed one takes values of its type (a double column also longs, a long column also whole
   * doubles) and sends anything else as null, counted; a multivalue, which only a list column
   * holds, too.
   */
  private void set(FieldVector vector, DataType type, Block block, int row) {
    if (block == null || block.isNull(row)) {
      vector.setNull(row);
      return;
    }
    if (block.getValueCount(row) > 1) {
      vector.setNull(row); // the sample had no multivalue in this column
      sample.nulledMultivalue();
      return;
    }
    if (!setValue(vector, type, block, block.getFirstValueIndex(row), row)) {
      vector.setNull(row); // e.g. text in a numeric column
      sample.nulled();
    }
  }

  /** Writes one position into a list column: its values, a single one as a list of one. */
  private void setList(ListVector vector, DataType type, Block block, int row) {
    if (block == null || block.isNull(row)) {
      vector.setNull(row);
      return;
    }
    FieldVector items = (FieldVector) vector.getDataVector();
    int count = block.getValueCount(row);
    int first = block.getFirstValueIndex(row);
    int start = vector.startNewValue(row);
    for (int i = 0; i < count; i++) {
      if (!setValue(items, type, block, first + i, start + i)) {
        items.setNull(start + i);
        sample.nulled();
      }
    }
    vector.endValue(row, count);
  }

  /**
   * Writes the value at {@code valueIndex} of a block at {@code index} of a vector of {@code type};
   * false when that type cannot hold it.
   */
  private static boolean setValue(
      FieldVector vector, DataType type, Block block, int valueIndex, int index) {
    DataType from = block.dataType();
    switch (type) {
      case STRING ->
          ((VarCharVector) vector)
              .setSafe(
                  index,
                  ResultValues.valueText(block, valueIndex).getBytes(StandardCharsets.UTF_8));
      case LONG -> {
        if (block instanceof LongBlock longs && from == DataType.LONG) {
          ((BigIntVector) vector).setSafe(index, longs.getLongValue(valueIndex));
        } else if (block instanceof DoubleBlock doubles
            && doubles.getDoubleValue(valueIndex) == Math.rint(doubles.getDoubleValue(valueIndex))
            && Math.abs(doubles.getDoubleValue(valueIndex)) < 0x1p63) {
          ((BigIntVector) vector).setSafe(index, (long) doubles.getDoubleValue(valueIndex));
        } else if (taggedNumber(block, valueIndex) instanceof Long whole) {
          ((BigIntVector) vector).setSafe(index, whole);
        } else {
          return false;
        }
      }
      case DOUBLE -> {
        if (block instanceof LongBlock longs && from == DataType.LONG) {
          ((Float8Vector) vector).setSafe(index, longs.getLongValue(valueIndex));
        } else if (block instanceof DoubleBlock doubles) {
          ((Float8Vector) vector).setSafe(index, doubles.getDoubleValue(valueIndex));
        } else if (taggedNumber(block, valueIndex) instanceof Number number) {
          ((Float8Vector) vector).setSafe(index, number.doubleValue());
        } else {
          return false;
        }
      }
      case TIMESTAMP -> {
        if (block instanceof LongBlock longs && from == DataType.TIMESTAMP) {
          ((TimeStampMicroTZVector) vector).setSafe(index, longs.getLongValue(valueIndex));
        } else {
          return false;
        }
      }
      case BOOLEAN -> {
        if (block instanceof BooleanBlock booleans) {
          ((BitVector) vector).setSafe(index, booleans.getBooleanValue(valueIndex) ? 1 : 0);
        } else {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The number a string block's value tagged as one spells ({@code BytesBlock.isNumber}: a number
   * that shared its page with text), or null for any other value.
   */
  private static Object taggedNumber(Block block, int valueIndex) {
    return block instanceof BytesBlock bytes && bytes.mayHaveNumbers() && bytes.isNumber(valueIndex)
        ? Values.numberOfText(bytes.getStringValue(valueIndex))
        : null;
  }

  private byte[] drain() {
    byte[] bytes = buffer.toByteArray();
    buffer.reset();
    return bytes;
  }

  @Override
  public void close() {
    if (writer != null) {
      writer.close();
    }
    if (root != null) {
      root.close();
    }
    if (dictionaryValues != null) {
      for (VarCharVector values : dictionaryValues) {
        if (values != null) {
          values.close();
        }
      }
    }
    allocator.close();
  }
}
