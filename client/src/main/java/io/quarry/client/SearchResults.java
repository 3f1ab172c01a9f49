package io.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * The rows of a search as the export endpoint returns them.
 *
 * @param fields field names in order of first appearance
 * @param rows one map per row, field name to value (text, as Splunk's API gives it; a multivalue,
 *     which the API gives as an array, is its values joined by newlines, as Splunk's CSV shows it)
 * @param messages warnings from the server
 */
public record SearchResults(
    List<String> fields, List<Map<String, String>> rows, List<String> messages) {
  public SearchResults {
    fields = List.copyOf(fields);
    rows = List.copyOf(rows);
    messages = List.copyOf(messages);
  }
}
