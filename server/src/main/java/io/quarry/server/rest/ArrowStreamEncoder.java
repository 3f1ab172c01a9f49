package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Encodes result pages as an Apache Arrow IPC stream: the schema, then one record batch per page,
 * each handed out as bytes as soon as it is encoded. Types map one to one: long → Int64, double →
 * Float64, boolean → Bool, string → Utf8 (multivalues joined with a line break, as Splunk shows
 * them), timestamp → Timestamp(µs, UTC). Buffers may be zstd-compressed (Arrow's own per-buffer
 * compression, which pyarrow reads transparently).
 *
 * <p>An Arrow stream has one schema: the first page's. A later page's column that the first did not
 * have is left out, and a column it lacks is null (searches with {@code | table} or {@code stats}
 * have one schema throughout).
 */
final class ArrowStreamEncoder implements Closeable {
  private final BufferAllocator allocator = new RootAllocator();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
  private final boolean zstd;
  private Schema schema;
  private VectorSchemaRoot root;
  private ArrowStreamWriter writer;

  ArrowStreamEncoder(boolean zstd) {
    this.zstd = zstd;
  }

  /** Encodes one page; returns the bytes to send (the schema before the first batch). */
  byte[] page(Page page) throws IOException {
    if (writer == null) {
      start(page.schema());
    }
    int rows = page.positionCount();
    root.allocateNew();
    for (int column = 0; column < schema.size(); column++) {
      FieldVector vector = root.getVector(column);
      int source = page.schema().indexOf(schema.column(column).name());
      Block block = source < 0 ? null : page.block(source);
      for (int row = 0; row < rows; row++) {
        set(vector, schema.column(column).type(), block, row);
      }
      vector.setValueCount(rows);
    }
    root.setRowCount(rows);
    writer.writeBatch();
    return drain();
  }

  /** Ends the stream; returns its last bytes (the schema first, for an empty result). */
  byte[] finish() throws IOException {
    if (writer == null) {
      start(new Schema(List.of()));
    }
    writer.end();
    return drain();
  }

  private void start(Schema first) throws IOException {
    schema = first;
    List<Field> fields = new ArrayList<>();
    for (Schema.Column column : first.columns()) {
      fields.add(new Field(column.name(), FieldType.nullable(arrowType(column.type())), null));
    }
    root =
        VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(fields), allocator);
    writer =
        new ArrowStreamWriter(
            root,
            null,
            Channels.newChannel(buffer),
            IpcOption.DEFAULT,
            zstd ? CommonsCompressionFactory.INSTANCE : NoCompressionCodec.Factory.INSTANCE,
            zstd ? CompressionUtil.CodecType.ZSTD : CompressionUtil.CodecType.NO_COMPRESSION);
    writer.start();
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

  private static void set(FieldVector vector, DataType type, Block block, int row) {
    if (block == null || block.isNull(row)) {
      vector.setNull(row);
      return;
    }
    Object value = block.getObject(row);
    switch (type) {
      case LONG -> {
        if (value instanceof Number number) {
          ((BigIntVector) vector).setSafe(row, number.longValue());
        } else {
          vector.setNull(row);
        }
      }
      case TIMESTAMP -> {
        if (value instanceof Number number) {
          ((TimeStampMicroTZVector) vector).setSafe(row, number.longValue());
        } else {
          vector.setNull(row);
        }
      }
      case DOUBLE -> {
        if (value instanceof Number number) {
          ((Float8Vector) vector).setSafe(row, number.doubleValue());
        } else {
          vector.setNull(row);
        }
      }
      case BOOLEAN -> {
        if (value instanceof Boolean bool) {
          ((BitVector) vector).setSafe(row, bool ? 1 : 0);
        } else {
          vector.setNull(row);
        }
      }
      case STRING -> {
        String text = ResultValues.text(block, row);
        ((VarCharVector) vector).setSafe(row, text.getBytes(StandardCharsets.UTF_8));
      }
    }
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
    allocator.close();
  }
}
