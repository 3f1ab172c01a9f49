package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * One event to store or as read back.
 *
 * @param timeMicros event time, epoch microseconds
 * @param raw the event text
 * @param indexedFields index-time fields, each with one or more values (held as an immutable copy:
 *     a few in the given order, {@link SmallFieldMap}; more as {@code Map.copyOf} holds them)
 */
public record Event(
    long timeMicros,
    String raw,
    String host,
    String source,
    String sourcetype,
    Map<String, List<String>> indexedFields) {

  public Event {
    requireNonNull(raw, "raw is null");
    requireNonNull(host, "host is null");
    requireNonNull(source, "source is null");
    requireNonNull(sourcetype, "sourcetype is null");
    indexedFields = SmallFieldMap.copyOf(requireNonNull(indexedFields, "indexedFields is null"));
  }
}
