package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;

/**
 * Serializes a batch of events for the log: {@code FirstSeq (vlong), Count (vint), Event^Count}; an
 * event is {@code Time (zlong), Raw, Host, Source, Sourcetype (strings), FieldCount (vint), <Name
 * (string), ValueCount (vint), Value (string)^ValueCount>^FieldCount}.
 */
final class WalCodec {
  private WalCodec() {}

  static byte[] encode(long firstSeq, List<Event> events) throws IOException {
    ByteBuffersDataOutput out = new ByteBuffersDataOutput();
    out.writeVLong(firstSeq);
    out.writeVInt(events.size());
    for (Event event : events) {
      out.writeZLong(event.timeMicros());
      out.writeString(event.raw());
      out.writeString(event.host());
      out.writeString(event.source());
      out.writeString(event.sourcetype());
      out.writeVInt(event.indexedFields().size());
      for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
        out.writeString(field.getKey());
        out.writeVInt(field.getValue().size());
        for (String value : field.getValue()) {
          out.writeString(value);
        }
      }
    }
    return out.toArrayCopy();
  }

  /** A decoded record: the sequence number of its first event, and its events. */
  record Batch(long firstSeq, List<Event> events) {}

  static Batch decode(byte[] payload) throws IOException {
    ByteArrayDataInput in = new ByteArrayDataInput(payload);
    long firstSeq = in.readVLong();
    int count = in.readVInt();
    List<Event> events = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long time = in.readZLong();
      String raw = in.readString();
      String host = in.readString();
      String source = in.readString();
      String sourcetype = in.readString();
      int fieldCount = in.readVInt();
      Map<String, List<String>> fields = new LinkedHashMap<>();
      for (int f = 0; f < fieldCount; f++) {
        String name = in.readString();
        int valueCount = in.readVInt();
        List<String> values = new ArrayList<>(valueCount);
        for (int v = 0; v < valueCount; v++) {
          values.add(in.readString());
        }
        fields.put(name, values);
      }
      events.add(new Event(time, raw, host, source, sourcetype, fields));
    }
    if (in.getPosition() != payload.length) {
      throw new IOException(
          "record has " + (payload.length - in.getPosition()) + " trailing bytes");
    }
    return new Batch(firstSeq, events);
  }
}
