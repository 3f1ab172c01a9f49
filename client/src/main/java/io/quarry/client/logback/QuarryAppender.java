package io.quarry.client.logback;

import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import io.quarry.client.HecSender;
import io.quarry.client.QuarryClientException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends log events to Quarry's HTTP Event Collector through a {@link HecSender} (batched, gzip,
 * retried; logging never blocks the application for longer than the sender's offer timeout, and a
 * failure to send is reported to Logback's status, never thrown at the application).
 *
 * <pre>{@code
 * <appender name="QUARRY" class="io.quarry.client.logback.QuarryAppender">
 *   <url>http://127.0.0.1:8088</url>
 *   <token>${QUARRY_HEC_TOKEN}</token>
 *   <index>main</index>
 *   <sourcetype>myapp</sourcetype>
 * </appender>
 * }</pre>
 *
 * For an {@code https://} URL whose certificate the JDK does not trust (a private CA, or the
 * server's generated {@code <dataDir>/tls/ca.pem}), {@code <caCertificate>} names that PEM file.
 *
 * <p>Each event's text is {@code pattern} (default {@value #DEFAULT_PATTERN}); its time is the log
 * event's; {@code level}, {@code logger} and {@code thread} travel as index-time fields, so {@code
 * level=ERROR} is a term lookup.
 */
public final class QuarryAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
  /** The default event text: level, thread, logger, message and any stack trace. */
  public static final String DEFAULT_PATTERN = "%-5level [%thread] %logger - %msg%n%ex";

  private String url;
  private String token;
  private String index;
  private String sourcetype = "logback";
  private String source;
  private String host;
  private String caCertificate;
  private String pattern = DEFAULT_PATTERN;
  private int batchEvents = 500;
  private PatternLayout layout;
  private HecSender sender;

  public void setUrl(String url) {
    this.url = url;
  }

  public void setToken(String token) {
    this.token = token;
  }

  public void setIndex(String index) {
    this.index = index;
  }

  public void setSourcetype(String sourcetype) {
    this.sourcetype = sourcetype;
  }

  public void setSource(String source) {
    this.source = source;
  }

  public void setHost(String host) {
    this.host = host;
  }

  /** A PEM file of the CA (or certificate) to trust for an {@code https://} URL. */
  public void setCaCertificate(String caCertificate) {
    this.caCertificate = caCertificate;
  }

  public void setPattern(String pattern) {
    this.pattern = pattern;
  }

  public void setBatchEvents(int batchEvents) {
    this.batchEvents = batchEvents;
  }

  @Override
  public void start() {
    if (url == null || token == null) {
      addError("QuarryAppender needs <url> and <token>");
      return;
    }
    layout = new PatternLayout();
    layout.setContext(getContext());
    layout.setPattern(pattern);
    layout.start();
    HecSender.Builder builder =
        HecSender.builder(URI.create(url), token).sourcetype(sourcetype).batchEvents(batchEvents);
    if (index != null) {
      builder.index(index);
    }
    if (source != null) {
      builder.source(source);
    }
    if (host != null) {
      builder.host(host);
    }
    if (caCertificate != null && !caCertificate.isBlank()) {
      try {
        builder.sslContext(
            io.quarry.client.TlsTrust.trusting(java.nio.file.Path.of(caCertificate)));
      } catch (RuntimeException e) {
        addError("QuarryAppender cannot use caCertificate " + caCertificate, e);
        return;
      }
    }
    sender = builder.build();
    super.start();
  }

  @Override
  protected void append(ILoggingEvent event) {
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("time", event.getTimeStamp() / 1000.0);
    envelope.put("event", layout.doLayout(event).stripTrailing());
    envelope.put(
        "fields",
        Map.of(
            "level", List.of(event.getLevel().toString()),
            "logger", List.of(event.getLoggerName()),
            "thread", List.of(event.getThreadName())));
    try {
      sender.send(envelope);
    } catch (QuarryClientException e) {
      addError("dropped a log event: " + e.getMessage());
    }
  }

  /** Sends what is buffered and waits for the server to have it. */
  public void flush() {
    if (sender != null) {
      try {
        sender.flush();
      } catch (QuarryClientException e) {
        addError("sending log events failed: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public void stop() {
    if (sender != null) {
      try {
        sender.close();
      } catch (QuarryClientException e) {
        addError("sending the last log events failed: " + e.getMessage(), e);
      }
    }
    if (layout != null) {
      layout.stop();
    }
    super.stop();
  }
}
