package io.quarry.server.demo;

import io.quarry.codecs.store.Event;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestService;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/** The bundled sample files and where each goes. See {@code demo/SOURCES.md} for their origin. */
public final class DemoData {
  /** The index the access log goes to; the demo makes sure it exists. */
  public static final String WEB_INDEX = "web";

  /**
   * Written to the data directory once the samples are in, so a restart does not load them again.
   */
  public static final String MARKER = ".demo-loaded";

  record Sample(String resource, String index, String sourcetype, String host, String source) {}

  static final List<Sample> SAMPLES =
      List.of(
          new Sample(
              "access.log", WEB_INDEX, "access_combined", "www1", "/var/log/httpd/access.log"),
          new Sample("Linux_2k.log", "main", "syslog", "combo", "/var/log/messages"),
          new Sample("OpenSSH_2k.log", "main", "linux_secure", "LabSZ", "/var/log/secure"),
          new Sample(
              "Apache_2k.log", "main", "apache_error", "apache-01", "/var/log/httpd/error_log"));

  /** The example queries the demo prints, with what each shows. */
  public static final List<Example> EXAMPLES =
      List.of(
          new Example("HTTP status codes of the web shop", "index=web | stats count by status"),
          new Example(
              "the clients with the most server errors",
              "index=web status>=500 | stats count by clientip | sort -count | head 5"),
          new Example(
              "response sizes per method: median, 95th percentile",
              "index=web | stats median(bytes) AS median, p95(bytes) AS p95 by method"),
          new Example(
              "requests per hour by method", "index=web | timechart span=1h count by method"),
          new Example(
              "failed SSH logins per host",
              "index=main sourcetype=linux_secure \"Failed password\" | stats count by host"),
          new Example("the three newest error events", "index=main error | head 3"));

  /** One example query. */
  public record Example(String title, String query) {}

  private DemoData() {}

  /**
   * Loads every sample unless the marker says it was done.
   *
   * @return the number of events loaded (0 when already loaded)
   */
  public static long loadOnce(IngestService ingest, Path dataDirectory, Instant now)
      throws IOException {
    Path marker = dataDirectory.resolve(MARKER);
    if (Files.exists(marker)) {
      return 0;
    }
    long loaded = 0;
    for (Sample sample : SAMPLES) {
      List<Event> events;
      try (InputStream in = DemoData.class.getResourceAsStream(sample.resource())) {
        if (in == null) {
          throw new UncheckedIOException(
              new IOException("missing demo resource " + sample.resource()));
        }
        events =
            ingest
                .breakRaw(
                    in.readAllBytes(), sample.sourcetype(), sample.host(), sample.source(), now)
                .events();
      }
      ingest.write(events.stream().map(e -> new IndexedEvent(sample.index(), e)).toList());
      loaded += events.size();
    }
    Files.writeString(marker, "loaded " + loaded + " events at " + now + "\n");
    return loaded;
  }
}
