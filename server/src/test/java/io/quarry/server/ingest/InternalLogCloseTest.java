package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.EventStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log record published as the internal log closes is never lost silently ({@link
 * InternalLog#close}): each one is in {@code _internal} of a real store, or counted there by a
 * "records dropped" event, or named by a warning to the server's other handlers at close or after
 * it — records published by several threads racing the close, and one published after it.
 */
class InternalLogCloseTest {
  private static final Pattern CLOSED = Pattern.compile("^(\\d+) log records? .*closed");
  private static final Pattern DROPPED = Pattern.compile(" - (\\d+) log records dropped");

  @TempDir Path data;

  @Test
  void everyRecordPublishedAsItClosesIsWrittenOrCounted() throws Exception {
    Logger logger = Logger.getLogger(InternalLog.class.getName());
    AtomicLong warned = new AtomicLong(); // named by the other handlers as not in the index
    AtomicLong waitedOut = new AtomicLong(); // close's warnings that it stopped waiting
    Handler counting =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            if (record.getMessage().startsWith("the internal log writer had not finished")) {
              waitedOut.incrementAndGet();
            }
            Matcher m = CLOSED.matcher(record.getMessage());
            if (m.find()) {
              warned.addAndGet(Long.parseLong(m.group(1)));
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(counting);
    try (EventStore store = EventStore.open(data, List.of(InternalLog.INDEX))) {
      // close waits up to a minute: the writer finishes on a loaded machine too (the wait it may
      // not outlast is aWriterCloseStoppedWaitingFor…'s)
      InternalLog log = InternalLog.start(store, "h", Duration.ofMinutes(1));
      int threads = 4;
      int each = 4_000;
      CountDownLatch started = new CountDownLatch(threads);
      AtomicLong published = new AtomicLong();
      Thread[] publishers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int thread = t;
        publishers[t] =
            new Thread(
                () -> {
                  started.countDown();
                  for (int i = 0; i < each; i++) {
                    log.publish(new LogRecord(Level.INFO, "mine " + thread + " " + i));
                    published.incrementAndGet();
                  }
                });
        publishers[t].start();
      }
      started.await();
      log.close(); // while the publishers publish
      for (Thread publisher : publishers) {
        publisher.join(60_000);
      }
      log.publish(new LogRecord(Level.INFO, "mine late"));
      published.incrementAndGet();

      long[] stored = new long[2]; // records of ours written, records counted as dropped
      store.scan(
          List.of(InternalLog.INDEX),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            String raw = e.event().raw();
            Matcher m = DROPPED.matcher(raw);
            if (m.find()) {
              stored[1] += Long.parseLong(m.group(1));
            } else if (raw.contains(" - mine ")) {
              stored[0]++;
            }
            return true;
          });
      // the dropped counts may include other loggers' records (io.quarry logs into the same
      // handler while it runs): each of ours is accounted for at least once, never twice itself
      String why =
          "written " + stored[0] + ", dropped in the index " + stored[1] + ", warned " + warned;
      assertThat(waitedOut.get())
          .as("the writer outlasted close's minute: the count below is the writer's to finish")
          .isZero();
      assertThat(stored[0] + stored[1] + warned.get())
          .as(why)
          .isGreaterThanOrEqualTo(published.get());
      assertThat(stored[0]).as(why).isLessThanOrEqualTo(published.get());
      assertThat(warned.get()).as("the one after the close at least").isPositive();
    } finally {
      logger.removeHandler(counting);
    }
  }

  /**
   * A writer close did not wait for (no wait at all here) says what it then fails to write when it
   * ends: the store is closed under it, as the server closes it next, and every record published is
   * still in {@code _internal}, counted there, or counted by a warning to the other handlers (until
   * session 47 close zeroed the count and named only the queue, what the writer failed to write
   * after was said by nobody, and a failed batch's "records dropped" event was counted as 1).
   */
  @Test
  void aWriterCloseStoppedWaitingForReportsWhatItFailsToWriteWhenItEnds() throws Exception {
    Logger logger = Logger.getLogger(InternalLog.class.getName());
    Queue<String> messages = new ConcurrentLinkedQueue<>();
    Handler seen =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            messages.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(seen);
    int published = 8_000; // the queue holds them all: none dropped as published
    try {
      InternalLog log;
      try (EventStore store = EventStore.open(data, List.of(InternalLog.INDEX))) {
        log = InternalLog.start(store, "h", Duration.ZERO);
        for (int i = 0; i < published; i++) {
          log.publish(new LogRecord(Level.INFO, "mine " + i));
        }
        log.close(); // does not wait: the writer is still writing batches
      } // the store closed under the writer: its next writes fail
      log.writer().join(60_000);
      assertThat(log.writer().isAlive()).as("the writer ended").isFalse();
      assertThat(messages)
          .as("close did not wait for the writer, and said so")
          .anyMatch(m -> m.startsWith("the internal log writer had not finished"));
      long warned = 0;
      for (String message : messages) {
        Matcher m = CLOSED.matcher(message);
        if (m.find()) {
          warned += Long.parseLong(m.group(1));
        }
      }
      long[] stored = new long[2];
      try (EventStore store = EventStore.open(data, List.of(InternalLog.INDEX))) {
        store.scan(
            List.of(InternalLog.INDEX),
            new MatchAllDocsQuery(),
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            e -> {
              String raw = e.event().raw();
              Matcher m = DROPPED.matcher(raw);
              if (m.find()) {
                stored[1] += Long.parseLong(m.group(1));
              } else if (raw.contains(" - mine ")) {
                stored[0]++;
              }
              return true;
            });
      }
      // a write the closing store failed may have reached the disk: at least once, not exactly
      assertThat(stored[0] + stored[1] + warned)
          .as("written %d, dropped in the index %d, warned %d", stored[0], stored[1], warned)
          .isGreaterThanOrEqualTo(published);
    } finally {
      logger.removeHandler(seen);
    }
  }
}
