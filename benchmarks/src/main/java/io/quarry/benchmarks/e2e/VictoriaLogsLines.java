package io.quarry.benchmarks.e2e;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference access log as VictoriaLogs' JSON lines: each line as {@code _msg}, its time as
 * {@code _time} (RFC 3339) and {@code ts} (epoch seconds), and fields parsed by DuckDB's regex
 * ({@link DuckDbEngine#LINE}) as separate fields — {@link Fields#INDEX}: the four Quarry extracts
 * at index time, so both store the line and the same fields (the default); {@link Fields#ALL}:
 * every field DuckDB's table holds, as a shipper that parses access logs would send them. Made once
 * per dataset and choice, untimed: the parsing is the sender's work.
 */
final class VictoriaLogsLines {
  /** Which fields are split out beside the line. */
  enum Fields {
    INDEX,
    ALL
  }

  private static final Pattern LINE = Pattern.compile(DuckDbEngine.LINE);
  private static final Pattern SESSION = Pattern.compile("JSESSIONID=([^&\\s\"]+)");
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

  private VictoriaLogsLines() {}

  /** The JSON lines of {@code accessLog} beside it, made when absent; returns their path. */
  static Path of(Path accessLog, Fields fields) throws IOException {
    String suffix = fields == Fields.ALL ? ".victorialogs.jsonl" : ".victorialogs-index.jsonl";
    Path jsonLines = accessLog.resolveSibling(accessLog.getFileName() + suffix);
    if (Files.exists(jsonLines)) {
      return jsonLines;
    }
    Path partial = jsonLines.resolveSibling(jsonLines.getFileName() + ".partial");
    JsonFactory json = new JsonFactory();
    try (BufferedReader reader = Files.newBufferedReader(accessLog, StandardCharsets.UTF_8);
        OutputStream out = Files.newOutputStream(partial);
        JsonGenerator generator = json.createGenerator(out, JsonEncoding.UTF8)) {
      generator.setRootValueSeparator(null);
      String line;
      while ((line = reader.readLine()) != null) {
        write(line, fields, generator);
        generator.writeRaw('\n');
      }
    }
    Files.move(partial, jsonLines);
    return jsonLines;
  }

  private static void write(String line, Fields split, JsonGenerator out) throws IOException {
    out.writeStartObject();
    out.writeStringField("_msg", line);
    Matcher fields = LINE.matcher(line);
    if (fields.find()) {
      OffsetDateTime time = OffsetDateTime.parse(fields.group(2), TIME);
      out.writeStringField("_time", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(time));
      out.writeNumberField("ts", time.toEpochSecond());
      out.writeStringField("clientip", fields.group(1));
      out.writeStringField("method", fields.group(3));
      out.writeStringField("uri_path", fields.group(5));
      out.writeNumberField("status", Integer.parseInt(fields.group(6)));
      if (split == Fields.ALL) {
        out.writeStringField("uri", fields.group(4));
        if (!fields.group(7).equals("-")) {
          out.writeNumberField("bytes", Long.parseLong(fields.group(7)));
        }
        if (fields.group(8) != null) {
          out.writeStringField("referer", fields.group(8));
          out.writeStringField("useragent", fields.group(9));
        }
      }
    }
    Matcher session = SESSION.matcher(line);
    if (split == Fields.ALL && session.find()) {
      out.writeStringField("JSESSIONID", session.group(1));
    }
    out.writeEndObject();
  }
}
