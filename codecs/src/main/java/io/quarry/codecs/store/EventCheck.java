package io.quarry.codecs.store;

import java.util.List;
import java.util.Map;
import org.apache.lucene.util.BytesRef;

/**
 * Whether events can be stored in an index ({@link IndexStore#problem}): typed index-time fields
 * parse as their type, and no keyword value is longer than a doc value may be. One check serves the
 * events of one batch, on one thread: their fields' declared types are remembered by the field's
 * position in the event, since a batch's events name the same fields in the same order by the same
 * {@code String}s, and the name is looked up in the index's options only where the one at its
 * position changes (the lookup was most of the per-event check).
 */
final class EventCheck {
  private static final int POSITIONS = 8;

  private final IndexOptions options;
  private final String[] names = new String[POSITIONS];
  private final IndexedFieldType[] types = new IndexedFieldType[POSITIONS];

  EventCheck(IndexOptions options) {
    this.options = options;
  }

  /**
   * @return why {@code event} cannot be stored, or null when it can
   */
  String problem(Event event) {
    if (utf8Length(event.host()) > IndexStore.MAX_KEYWORD_BYTES
        || utf8Length(event.source()) > IndexStore.MAX_KEYWORD_BYTES
        || utf8Length(event.sourcetype()) > IndexStore.MAX_KEYWORD_BYTES) {
      return "a default field value is longer than " + IndexStore.MAX_KEYWORD_BYTES + " bytes";
    }
    int position = 0;
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      IndexedFieldType type = type(position++, field.getKey());
      for (String value : field.getValue()) {
        String problem = type.problem(value);
        if (problem != null) {
          return "field '" + field.getKey() + "' is declared " + type.configName() + ": " + problem;
        }
        if (utf8Length(value) > IndexStore.MAX_KEYWORD_BYTES) {
          return "field '"
              + field.getKey()
              + "' has a value longer than "
              + IndexStore.MAX_KEYWORD_BYTES
              + " bytes";
        }
      }
    }
    return null;
  }

  private IndexedFieldType type(int position, String name) {
    if (position >= POSITIONS) {
      return options.fieldType(name);
    }
    if (names[position] != name) { // by identity: an equal name from another event is looked up
      types[position] = options.fieldType(name);
      names[position] = name;
    }
    return types[position];
  }

  private static long utf8Length(String value) {
    return value.length() * 3L <= IndexStore.MAX_KEYWORD_BYTES
        ? value.length()
        : new BytesRef(value).length;
  }
}
