package io.quarry.server.search;

import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;

/**
 * Whether an event's sourcetype leaves a field to automatic key=value extraction over its text —
 * what a scan reading the field from the text's bytes asks per event ({@link EventColumn}, {@link
 * KeyValueStates}): not when the sourcetype's own extraction may give the field (then key=value
 * does not), nor when it reads its text other than as plain {@code kvMode: auto} pairs ({@code
 * none}, {@code auto_escaped}, {@code json}, {@code xml}), nor for a date field; the full
 * extraction answers those. The answer is kept for the sourcetype name last asked about: a
 * segment's events share one {@code String}. Not thread-safe: one per column or slice.
 */
final class KeyValueSourcetypes {
  private final Sourcetypes sourcetypes;
  private final String field;
  private String checked; // the sourcetype name last asked about, and its answer
  private boolean extracts;

  KeyValueSourcetypes(Sourcetypes sourcetypes, String field) {
    this.sourcetypes = sourcetypes;
    this.field = field;
  }

  /** Whether events of the sourcetype {@code name} take the field from elsewhere than key=value. */
  boolean extracts(String name) {
    if (name != checked) { // the same String for a segment's sourcetype
      checked = name;
      Sourcetype sourcetype = sourcetypes.forName(name);
      extracts =
          sourcetype.mayExtract(field) || !sourcetype.readsPlainPairs() || DateFields.is(field);
    }
    return extracts;
  }
}
