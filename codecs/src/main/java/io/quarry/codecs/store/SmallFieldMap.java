package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * An event's few index-time fields as an immutable map over an array of its entries, in the order
 * they were given: what {@link Event} holds when it has at most {@link #MAX_FIELDS} of them (an
 * access log has four). The store walks every event's fields several times on the way in (the log's
 * encoding, the check, the block's columns and counts); {@code Map.copyOf}'s hash table is walked
 * slot by slot from a random start, making an entry per step; this array from the first field to
 * the last. Lookups compare keys one by one, fast for so few. Equal to any map with the same
 * entries ({@link AbstractMap}); a null key is refused as {@code Map.copyOf}'s maps refuse it.
 */
public final class SmallFieldMap extends AbstractMap<String, List<String>> {
  /** The most fields held this way; an event with more holds {@code Map.copyOf}'s map. */
  public static final int MAX_FIELDS = 8;

  // the entries made once, so walking the map allocates none (Map.copyOf's map makes one per step)
  private final Map.Entry<String, List<String>>[] entries;

  private SmallFieldMap(Map.Entry<String, List<String>>[] entries) {
    this.entries = entries;
  }

  /**
   * An immutable copy of {@code fields} (no null key or value, as {@code Map.copyOf}): this map
   * itself when it is one, else the fields in the given map's iteration order when they are few,
   * else {@code Map.copyOf}.
   */
  @SuppressWarnings("unchecked")
  static Map<String, List<String>> copyOf(Map<String, List<String>> fields) {
    if (fields instanceof SmallFieldMap) {
      return fields;
    }
    if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
      return Map.copyOf(fields);
    }
    Map.Entry<String, List<String>>[] entries = new Map.Entry[fields.size()];
    int i = 0;
    for (Map.Entry<String, List<String>> field : fields.entrySet()) {
      if (i == entries.length) {
        return Map.copyOf(fields); // a map that grew while it was read: as Map.copyOf would
      }
      entries[i++] = Map.entry(field.getKey(), field.getValue()); // refuses nulls
    }
    return i == entries.length ? new SmallFieldMap(entries) : Map.copyOf(fields);
  }

  /**
   * The map of these entries, in this order, taking the array (the caller keeps no reference to
   * it): how an extraction that knows its few fields (the access-log one) hands them to {@link
   * Event} without building a map first. Refuses what {@code Map.ofEntries} refuses: a null entry,
   * a duplicate key, and more than {@link #MAX_FIELDS} entries (which {@link #copyOf} would hold as
   * {@code Map.copyOf}'s map); the entries' own keys and values are non-null ({@code Map.entry}).
   */
  @SafeVarargs
  public static Map<String, List<String>> ofEntries(Map.Entry<String, List<String>>... entries) {
    if (entries.length == 0 || entries.length > MAX_FIELDS) {
      throw new IllegalArgumentException(
          "a small field map holds 1 to " + MAX_FIELDS + " fields, not " + entries.length);
    }
    for (int i = 0; i < entries.length; i++) {
      String key = requireNonNull(entries[i], "entry is null").getKey();
      requireNonNull(key, "key is null");
      requireNonNull(entries[i].getValue(), "value is null");
      for (int j = 0; j < i; j++) {
        if (entries[j].getKey().equals(key)) {
          throw new IllegalArgumentException("duplicate key: " + key);
        }
      }
    }
    return new SmallFieldMap(entries);
  }

  /**
   * The name of field {@code i} ({@code 0 <= i < size()}), in the map's order: the ingest's walks
   * over an event's fields ({@code WalCodec}, {@link BlockDocuments}) read a field by its index
   * rather than through {@link #entrySet}'s iterators, whose calls a server that also sees other
   * maps at the same sites does not inline (each step a call, the iterators made per event).
   */
  public String name(int i) {
    return entries[i].getKey();
  }

  /** The values of field {@code i}, as {@link #name}. */
  public List<String> values(int i) {
    return entries[i].getValue();
  }

  @Override
  public int size() {
    return entries.length;
  }

  @Override
  public boolean isEmpty() {
    return entries.length == 0;
  }

  @Override
  public List<String> get(Object key) {
    requireNonNull(key); // as Map.copyOf's maps
    for (Map.Entry<String, List<String>> entry : entries) {
      if (entry.getKey().equals(key)) {
        return entry.getValue();
      }
    }
    return null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null; // no null values
  }

  @Override
  public Set<Map.Entry<String, List<String>>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return entries.length;
      }

      @Override
      public Iterator<Map.Entry<String, List<String>>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < entries.length;
          }

          @Override
          public Map.Entry<String, List<String>> next() {
            if (next >= entries.length) {
              throw new NoSuchElementException();
            }
            return entries[next++];
          }
        };
      }
    };
  }
}
