package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.EventStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An internal log whose writer is interrupted stops taking records without taking the loggers down
 * with it: a later {@code io.quarry} log call reaches the server's other handlers (until session 47
 * it came back to this handler, whose warning about it came back again, until the logging thread's
 * stack overflowed), and one published straight to the handler is named there as not in the index.
 */
class InternalLogInterruptTest {
  @TempDir Path data;

  @Test
  void loggingAfterTheWriterWasInterruptedReachesTheOtherHandlers() throws Exception {
    Logger quarry = Logger.getLogger("io.quarry");
    Queue<String> seen = new ConcurrentLinkedQueue<>(); // what the other handlers are given
    Handler other =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            seen.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    quarry.addHandler(other);
    try (EventStore store = EventStore.open(data, List.of(InternalLog.INDEX))) {
      InternalLog log = InternalLog.start(store, "h");
      try {
        log.writer().interrupt();
        log.writer().join(60_000);
        assertThat(log.writer().isAlive()).as("the interrupted writer ended").isFalse();
        assertThat(seen).anyMatch(m -> m.startsWith("the internal log writer was interrupted"));

        Logger.getLogger("io.quarry.test.interrupted").info("after the interrupt");
        assertThat(seen).contains("after the interrupt");

        log.publish(new LogRecord(Level.INFO, "straight to it"));
        assertThat(seen)
            .anyMatch(m -> m.contains("not in " + InternalLog.INDEX + ": straight to it"));
      } finally {
        log.close();
      }
    } finally {
      quarry.removeHandler(other);
    }
  }

  /**
   * A closed handler still attached to the loggers (here attached again by hand, as logging
   * configured outside the server could leave it) does not warn about its own warning: the record
   * and the warning naming it reach the other handlers once each.
   */
  @Test
  void aClosedHandlerStillAttachedNeverWarnsAboutItsOwnWarning() throws Exception {
    Logger quarry = Logger.getLogger("io.quarry");
    Queue<String> seen = new ConcurrentLinkedQueue<>();
    Handler other =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            seen.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    quarry.addHandler(other);
    try (EventStore store = EventStore.open(data, List.of(InternalLog.INDEX))) {
      InternalLog log = InternalLog.start(store, "h");
      log.close();
      quarry.addHandler(log);
      try {
        Logger.getLogger("io.quarry.test.closed").info("after the close");
        assertThat(seen).filteredOn("after the close"::equals).hasSize(1);
        assertThat(seen)
            .filteredOn(m -> m.contains("not in " + InternalLog.INDEX + ": after the close"))
            .hasSize(1);
      } finally {
        quarry.removeHandler(log);
      }
    } finally {
      quarry.removeHandler(other);
    }
  }
}
