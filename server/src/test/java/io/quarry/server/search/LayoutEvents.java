package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.RunningServer;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The events of the tests that compare the two layouts over HEC envelopes ({@code BlockRunMixTest},
 * {@code BlockValueCountTest}, the {@code NoValueCodes} tests): 3,000 events (unless a test asks
 * for another number) 7 s apart from {@link #START}, sent 250 to a request to index {@code ev} and
 * to index {@code bl} ({@link TestServers#startLayouts}), one server a test class ({@link
 * #running}). A block (at most one request's events) spans about half an hour, so some lie inside
 * one hour of a {@code timechart}, some inside a search's range.
 */
final class LayoutEvents {
  /** The first event's time, in seconds: 2026-01-07T10:00:00Z. */
  static final long START = 1767780000L;

  private static final int EVENTS = 3000;
  private static final int REQUEST = 250;

  private LayoutEvents() {}

  /** The HEC envelope of event {@code i} (from 0) for {@code index}, ending with a newline. */
  @FunctionalInterface
  interface Envelope {
    String of(String index, int i) throws Exception;
  }

  /**
   * A test class's server ({@code @RegisterExtension}) whose indexes {@code ev} and {@code bl} hold
   * the same events, {@code envelope}'s, the admin password being {@code password}.
   */
  static RunningServer running(String password, String token, Envelope envelope) {
    return running(password, token, Map.of(), EVENTS, envelope);
  }

  /** As above, with {@code sourcetypes} and {@code events} events. */
  static RunningServer running(
      String password,
      String token,
      Map<String, SourcetypeSettings> sourcetypes,
      int events,
      Envelope envelope) {
    return new RunningServer(
        password, data -> start(data, password, token, sourcetypes, events, envelope));
  }

  /**
   * A server whose indexes {@code ev} and {@code bl} hold the same {@code events} events, {@code
   * envelope}'s, with {@code sourcetypes}.
   */
  private static QuarryServer start(
      Path data,
      String password,
      String token,
      Map<String, SourcetypeSettings> sourcetypes,
      int events,
      Envelope envelope)
      throws Exception {
    QuarryServer server = TestServers.startLayouts(data, password, token, sourcetypes);
    for (String index : List.of("ev", "bl")) {
      for (int from = 0; from < events; from += REQUEST) {
        StringBuilder body = new StringBuilder();
        for (int i = from; i < Math.min(events, from + REQUEST); i++) {
          body.append(envelope.of(index, i));
        }
        TestServers.postEvents(server, token, body.toString());
      }
    }
    return server;
  }

  /**
   * Asserts that each of {@code queries} (what follows {@code search index=…}) answers over the
   * block layout ({@code bl}) as over the event layout ({@code ev}), naming every one that does
   * not.
   */
  static void assertSameOverBoth(RunningServer server, List<String> queries) throws Exception {
    List<String> differ = new ArrayList<>();
    for (String query : queries) {
      String events = server.exportOk("search index=ev " + query);
      String blocks = server.exportOk("search index=bl " + query);
      if (!blocks.equals(events)) {
        differ.add(query + "\n  ev: " + events + "\n  bl: " + blocks);
      }
    }
    assertThat(differ).as("queries answered otherwise over the block layout").isEmpty();
  }
}
