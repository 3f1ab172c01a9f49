package io.quarry.codecs.store;

import java.util.List;
import java.util.Map;
import org.apache.lucene.util.BytesRef;

/**
 * Whether an event can be stored in an index, by the index's options: what {@link
 * IndexStore#problem} answers for every event of a batch before any is logged, so a bad event
 * refuses the batch whole.
 */
final class EventCheck {
  /** The longest keyword value, in UTF-8 bytes, that doc values hold. */
  static final int MAX_KEYWORD_BYTES = 32766;

  private EventCheck() {}

  /**
   * Checks that an event can be stored in an index of these options: typed index-time fields parse
   * as their type, and no keyword value is longer than a doc value may be.
   *
   * @return the problem, or null when the event is acceptable
   */
  static String problem(IndexOptions options, Event event) {
    for (String value : new String[] {event.host(), event.source(), event.sourcetype()}) {
      if (utf8Length(value) > MAX_KEYWORD_BYTES) {
        return "a default field value is longer than " + MAX_KEYWORD_BYTES + " bytes";
      }
    }
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      IndexedFieldType type = options.fieldType(field.getKey());
      for (String value : field.getValue()) {
        String problem = type.problem(value);
        if (problem != null) {
          return "field '" + field.getKey() + "' is declared " + type.configName() + ": " + problem;
        }
        if (utf8Length(value) > MAX_KEYWORD_BYTES) {
          return "field '"
              + field.getKey()
              + "' has a value longer than "
              + MAX_KEYWORD_BYTES
              + " bytes";
        }
      }
    }
    return null;
  }

  private static long utf8Length(String value) {
    return value.length() * 3L <= MAX_KEYWORD_BYTES ? value.length() : new BytesRef(value).length;
  }
}
