package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.store.ByteArrayDataInput;

/**
 * The records of a version-1 log file (written before session 35), read when such a file is
 * replayed; nothing writes them any more. A record's payload is {@code FirstSeq (vlong), Count
 * (vint), Event^Count}; an event is {@code Time (zlong), Raw, Host, Source, Sourcetype (strings),
 * FieldCount (vint), <Name (string), ValueCount (vint), Value (string)^ValueCount>^FieldCount}, a
 * string Lucene's {@code writeString}: every event's texts in full.
 */
final class WalRecordV1 {
  private WalRecordV1() {}

  static WalCodec.Batch decode(byte[] payload) throws IOException {
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
    return new WalCodec.Batch(firstSeq, events);
  }
}
