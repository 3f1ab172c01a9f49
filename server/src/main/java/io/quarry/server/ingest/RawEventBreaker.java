package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Breaks a raw stream into one event per line (blank lines skipped, a trailing {@code \r} dropped)
 * and timestamps each by its sourcetype's rules. An event without a recognisable timestamp takes
 * the time of the previous event of the stream, or the receive time when it is the first, as Splunk
 * does.
 *
 * <p>Multi-line events (line merging, LINE_BREAKER) come with the ingestion issue.
 */
public final class RawEventBreaker {
  private final Sourcetype sourcetype;
  private final String host;
  private final String source;
  private final Instant now;

  public RawEventBreaker(String sourcetype, String host, String source, Instant now) {
    this.sourcetype = Sourcetypes.forName(requireNonNull(sourcetype, "sourcetype is null"));
    this.host = requireNonNull(host, "host is null");
    this.source = requireNonNull(source, "source is null");
    this.now = requireNonNull(now, "now is null");
  }

  public List<Event> breakEvents(InputStream body) throws IOException {
    List<Event> events = new ArrayList<>();
    long receiveTime = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    long previousTime = receiveTime;
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 64 * 1024)) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        OptionalLong time = sourcetype.timestamp(line, now);
        long eventTime = time.orElse(previousTime);
        previousTime = eventTime;
        events.add(new Event(eventTime, line, host, source, sourcetype.name(), Map.of()));
      }
    }
    return events;
  }
}
