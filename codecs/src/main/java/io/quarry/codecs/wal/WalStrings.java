package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.SmallFieldMap;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's distinct hosts, sources, sourcetypes and field names, numbered in the order first seen:
 * a {@link WalCodec} record's {@code String^StringCount}. A batch's events name them by the same
 * instances, so each slot (host, source, sourcetype, a field's place) remembers the string it saw
 * last and its number: one identity check an event and name, a hash lookup only when the instance
 * changes (a batch may name a host or a source of its own per event: a search of the strings seen
 * would be quadratic).
 */
final class WalStrings {
  static final int NAME_SLOTS = 8;

  private final List<String> texts = new ArrayList<>();
  private final HashMap<String, Integer> numbers = new HashMap<>();
  private final String[] lastText = new String[3 + NAME_SLOTS + 1];
  private final int[] lastNumber = new int[3 + NAME_SLOTS + 1];
  long bytes; // about: their UTF-8 lengths, for the output's first size

  WalStrings(List<Event> events) {
    for (int i = 0; i < events.size(); i++) {
      Event event = events.get(i);
      number(0, event.host());
      number(1, event.source());
      number(2, event.sourcetype());
      Map<String, List<String>> fields = event.indexedFields();
      if (fields instanceof SmallFieldMap small) {
        for (int f = 0; f < small.size(); f++) {
          number(nameSlot(f), small.name(f));
        }
      } else {
        int position = 0;
        for (String name : fields.keySet()) {
          number(nameSlot(position++), name);
        }
      }
    }
  }

  /**
   * The slot of the name of an event's field at {@code position}: the first {@link #NAME_SLOTS}
   * positions one each, the rest one together.
   */
  static int nameSlot(int position) {
    return 3 + Math.min(position, NAME_SLOTS);
  }

  /**
   * The number of {@code text}, remembered in {@code slot}: the identity check alone here, so the
   * JIT inlines it where it is called (seven times an access-log event); the lookup is {@link
   * #lookUp}'s. As one method with the lookup it was compiled on its own, not inlined, and its
   * calls took 447 of the 943 samples of the encode and the count in {@code WalEncodeCpu}'s profile
   * (26 once split; session 48).
   */
  int number(int slot, String text) {
    return lastText[slot] == text ? lastNumber[slot] : lookUp(slot, text);
  }

  private int lookUp(int slot, String text) {
    Integer known = numbers.get(text);
    int number;
    if (known == null) {
      number = texts.size();
      numbers.put(text, number);
      texts.add(text);
      bytes += 1 + text.length();
    } else {
      number = known;
    }
    lastText[slot] = text;
    lastNumber[slot] = number;
    return number;
  }

  /** The bytes {@link #write} writes. */
  long encodedBytes() {
    long bytes = WalCodec.vIntBytes(texts.size());
    for (String text : texts) {
      bytes += stringBytes(text);
    }
    return bytes;
  }

  /** The bytes of {@code text} as {@link WalOutput#writeString} writes it: UTF-8 length, bytes. */
  static int stringBytes(String text) {
    int utf8 = org.apache.lucene.util.UnicodeUtil.calcUTF16toUTF8Length(text, 0, text.length());
    return WalCodec.vIntBytes(utf8) + utf8;
  }

  void write(WalOutput out) throws IOException {
    out.writeVInt(texts.size());
    for (String text : texts) {
      WalOutput.writeString(out, text);
    }
  }
}
