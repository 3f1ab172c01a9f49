package io.quarry.server.rest;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Schema;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.jobs.SearchJob;
import io.quarry.server.lookups.Csv;
import io.quarry.server.search.SearchStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Splunk search job's results as {@link SplunkJobRoutes} answers them, in the requested {@code
 * output_mode}: Splunk's results XML (the default), {@code json}, {@code json_rows}, {@code
 * json_cols} or {@code csv}, with the job's messages; and the empty answer of {@code …/events} for
 * a transforming search.
 */
final class SplunkJobResults {
  private SplunkJobResults() {}

  /**
   * How results are answered: {@code json} (a list of objects), {@code json_rows} (field names and
   * a list of value lists), {@code json_cols} (field names and one value list per field), {@code
   * csv}, or Splunk's results XML (the default).
   */
  enum Mode {
    XML,
    JSON,
    JSON_ROWS,
    JSON_COLS,
    CSV;

    static Mode of(Exchange exchange) {
      String mode = exchange.parameter("output_mode");
      if (mode == null || mode.equalsIgnoreCase("xml")) {
        return XML;
      }
      return switch (mode.toLowerCase(Locale.ROOT)) {
        case "json" -> JSON;
        case "json_rows" -> JSON_ROWS;
        case "json_cols" -> JSON_COLS;
        case "csv" -> CSV;
        default ->
            throw ApiException.badRequest(
                "UNSUPPORTED_OUTPUT_MODE",
                "output_mode '"
                    + mode
                    + "' is not supported for results; use json, json_rows, json_cols, csv or xml");
      };
    }
  }

  /** Answers a slice of a job's results in the requested mode. */
  static void answer(Exchange exchange, Mode mode, SearchJob job, long offset, long count) {
    switch (mode) {
      case JSON -> exchange.json(HttpResponseStatus.OK, results(job, offset, count));
      case JSON_ROWS, JSON_COLS ->
          exchange.json(HttpResponseStatus.OK, tabular(job, offset, count, mode == Mode.JSON_COLS));
      case CSV ->
          exchange.text(HttpResponseStatus.OK, "text/csv; charset=UTF-8", csv(job, offset, count));
      case XML ->
          exchange.text(
              HttpResponseStatus.OK, SplunkAtom.CONTENT_TYPE, xmlResults(job, offset, count));
    }
  }

  /** The field names of a job's results, in order. */
  private static List<String> fieldNames(SearchJob job) {
    Schema schema = job.schema();
    return schema == null ? List.of() : ResultValues.names(schema);
  }

  /** Splunk's results XML, as its SDK's {@code ResultsReader} reads it. */
  private static String xmlResults(SearchJob job, long offset, long count) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append("<results preview=\"").append(job.state().finished() ? 0 : 1).append("\">\n<meta>");
    xml.append("<fieldOrder>");
    for (String name : fieldNames(job)) {
      xml.append("<field>").append(SplunkAtom.escape(name)).append("</field>");
    }
    xml.append("</fieldOrder></meta>\n");
    List<Map<String, String>> messages = messageList(job);
    if (!messages.isEmpty()) {
      xml.append("<messages>");
      for (Map<String, String> message : messages) {
        xml.append("<msg type=\"")
            .append(SplunkAtom.escape(message.get("type")))
            .append("\">")
            .append(SplunkAtom.escape(message.get("text")))
            .append("</msg>");
      }
      xml.append("</messages>\n");
    }
    long position = offset;
    for (SearchJob.RowRef row : job.slice(offset, count == 0 ? Long.MAX_VALUE : count)) {
      xml.append("<result offset=\"").append(position++).append("\">");
      for (int column = 0; column < row.page().schema().size(); column++) {
        Block block = row.page().block(column);
        if (block.isNull(row.position())) {
          continue;
        }
        xml.append("<field k=\"")
            .append(SplunkAtom.escape(row.page().schema().column(column).name()))
            .append("\">");
        // a <value> per value, as Splunk writes a multivalue (its SDKs' test data, resultsMV.xml)
        int first = block.getFirstValueIndex(row.position());
        for (int i = first; i < first + block.getValueCount(row.position()); i++) {
          xml.append("<value><text>")
              .append(SplunkAtom.escape(ResultValues.valueText(block, i)))
              .append("</text></value>");
        }
        xml.append("</field>");
      }
      xml.append("</result>\n");
    }
    return xml.append("</results>\n").toString();
  }

  /** RFC 4180 CSV with a header of the job's fields. */
  private static String csv(SearchJob job, long offset, long count) {
    List<String> names = fieldNames(job);
    StringBuilder csv = new StringBuilder();
    Csv.line(csv, names);
    for (SearchJob.RowRef row : job.slice(offset, count == 0 ? Long.MAX_VALUE : count)) {
      int[] columns = ResultValues.columns(row.page().schema(), names);
      Csv.line(csv, ResultValues.texts(row.page(), row.position(), columns));
    }
    return csv.toString();
  }

  /**
   * {@code …/events} of a transforming search: like Splunk without {@code status_buckets}, no
   * events (they were aggregated, not kept), and a message pointing at {@code …/results}.
   */
  static void answerNoEvents(Exchange exchange, Mode mode, SearchJob job) {
    String text =
        "This search transforms its events; they are not kept. Its rows are at …/results.";
    List<Map<String, String>> messages = new ArrayList<>(messageList(job));
    messages.add(message("INFO", text));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", 0);
    body.put("messages", messages);
    body.put("fields", List.of());
    switch (mode) {
      case JSON -> body.put("results", List.of());
      case JSON_ROWS -> body.put("rows", List.of());
      case JSON_COLS -> body.put("columns", List.of());
      case CSV -> {
        exchange.text(HttpResponseStatus.OK, "text/csv; charset=UTF-8", "");
        return;
      }
      case XML -> {
        exchange.text(
            HttpResponseStatus.OK,
            SplunkAtom.CONTENT_TYPE,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<results preview=\""
                + (job.state().finished() ? 0 : 1)
                + "\">\n<meta><fieldOrder></fieldOrder></meta>\n<messages><msg type=\"INFO\">"
                + SplunkAtom.escape(text)
                + "</msg></messages>\n</results>\n");
        return;
      }
    }
    exchange.json(HttpResponseStatus.OK, body);
  }

  /**
   * Splunk's results JSON: field names, then one object of text values per row (a multivalue an
   * array of texts).
   */
  private static Map<String, Object> results(SearchJob job, long offset, long count) {
    long take = count == 0 ? Long.MAX_VALUE : count;
    Schema schema = job.schema();
    List<Map<String, String>> fields = new ArrayList<>();
    if (schema != null) {
      for (Schema.Column column : schema.columns()) {
        fields.add(Map.of("name", column.name()));
      }
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (SearchJob.RowRef row : job.slice(offset, take)) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (int column = 0; column < row.page().schema().size(); column++) {
        Object value = ResultValues.splunk(row.page().block(column), row.position());
        if (value != null) {
          values.put(row.page().schema().column(column).name(), value);
        }
      }
      rows.add(values);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", offset);
    body.put("messages", messageList(job));
    body.put("fields", fields);
    body.put("results", rows);
    return body;
  }

  /**
   * Splunk's {@code json_rows} ({@code "rows": [[v, …], …]}) or {@code json_cols} ({@code
   * "columns": [[v, …] per field]}): field names once, values as text (a multivalue an array of
   * texts), null where a row has none.
   */
  private static Map<String, Object> tabular(
      SearchJob job, long offset, long count, boolean byColumn) {
    long take = count == 0 ? Long.MAX_VALUE : count;
    List<String> names = fieldNames(job);
    List<List<Object>> rows = new ArrayList<>();
    for (SearchJob.RowRef row : job.slice(offset, take)) {
      int[] columns = ResultValues.columns(row.page().schema(), names);
      rows.add(ResultValues.splunkValues(row.page(), row.position(), columns));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("preview", !job.state().finished());
    body.put("init_offset", offset);
    body.put("messages", messageList(job));
    body.put("fields", names);
    if (byColumn) {
      List<List<Object>> columns = new ArrayList<>();
      for (int c = 0; c < names.size(); c++) {
        List<Object> column = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
          column.add(row.get(c));
        }
        columns.add(column);
      }
      body.put("columns", columns);
    } else {
      body.put("rows", rows);
    }
    return body;
  }

  /** A job's messages in Splunk's shape: its warnings, its failure, why it waits. */
  static List<Map<String, String>> messageList(SearchJob job) {
    List<Map<String, String>> messages = new ArrayList<>();
    SearchStats stats = job.stats();
    if (stats != null) {
      for (String text : stats.messages()) {
        messages.add(message("WARN", text));
      }
    }
    if (job.error() != null) {
      messages.add(message("FATAL", job.error().getMessage()));
    }
    if (job.waiting() != null) { // past the user's srchJobsQuota, as Splunk says it
      messages.add(message("INFO", job.waiting()));
    }
    return messages;
  }

  /** A Splunk message, its keys in Splunk's order. */
  static Map<String, String> message(String type, String text) {
    Map<String, String> message = new LinkedHashMap<>();
    message.put("type", type);
    message.put("text", text);
    return message;
  }
}
