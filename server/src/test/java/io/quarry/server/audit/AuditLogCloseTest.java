package io.quarry.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.EventStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An audit event recorded as the audit log closes is never lost silently ({@link AuditLog#close}):
 * each one recorded is in {@code _audit} of a real store, or counted there by an {@code
 * info=dropped} event, or counted by the server log's warning at close or after it — events
 * recorded by several threads racing the close, and one recorded after it.
 */
class AuditLogCloseTest {
  private static final Pattern COUNT = Pattern.compile("^(\\d+) audit events? ");
  private static final Pattern DROPPED = Pattern.compile("info=\"?dropped\"?, count=\"?(\\d+)");

  @TempDir Path data;

  @Test
  void everyEventRecordedAsItClosesIsWrittenOrCounted() throws Exception {
    Logger logger = Logger.getLogger(AuditLog.class.getName());
    AtomicLong logged = new AtomicLong(); // counted by the server log as not written
    Handler counting =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            Matcher m = COUNT.matcher(record.getMessage());
            if (m.find() && record.getMessage().contains("closed")) {
              logged.addAndGet(Long.parseLong(m.group(1)));
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(counting);
    try (EventStore store = EventStore.open(data, List.of(AuditLog.INDEX))) {
      AuditLog log = AuditLog.start(store, "h");
      int threads = 4;
      int each = 4_000; // more than the queue holds between the writer's batches, at times
      CountDownLatch started = new CountDownLatch(threads);
      AtomicLong recorded = new AtomicLong();
      Thread[] recorders = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int thread = t;
        recorders[t] =
            new Thread(
                () -> {
                  started.countDown();
                  for (int i = 0; i < each; i++) {
                    log.record(AuditEvent.of(Instant.now(), "u" + thread, "search", "n" + i));
                    recorded.incrementAndGet();
                  }
                });
        recorders[t].start();
      }
      started.await();
      log.close(); // while the recorders record
      for (Thread recorder : recorders) {
        recorder.join(60_000);
      }
      log.record(AuditEvent.of(Instant.now(), "late", "search", "after close"));
      recorded.incrementAndGet();

      long[] stored = new long[2]; // events written, events counted as dropped
      store.scan(
          List.of(AuditLog.INDEX),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          e -> {
            Matcher m = DROPPED.matcher(e.event().raw());
            if (m.find()) {
              stored[1] += Long.parseLong(m.group(1));
            } else {
              stored[0]++;
            }
            return true;
          });
      assertThat(stored[0] + stored[1] + logged.get())
          .as("written %d, dropped in the trail %d, logged %d", stored[0], stored[1], logged.get())
          .isEqualTo(recorded.get());
      assertThat(logged.get()).as("the one after the close at least").isPositive();
    } finally {
      logger.removeHandler(counting);
    }
  }
}
