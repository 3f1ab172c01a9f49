package io.quarry.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link FailedLoginBudget} on a fake clock: {@value FailedLoginBudget#PER_MINUTE} failed logins a
 * minute from one address are recorded one by one, then one event says the rest are counted, and
 * when the minute is over one event says how many; other addresses have their own budget.
 */
class FailedLoginBudgetTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
  private final List<AuditEvent> recorded = new ArrayList<>();
  private final FailedLoginBudget budget = new FailedLoginBudget(recorded::add, now::get);

  @Test
  void pastTheBudgetAttemptsAreCountedAndTheCountRecordedWhenTheMinuteEnds() {
    for (int i = 0; i < 500; i++) {
      budget.record(failed("u" + i), "10.0.0.1");
    }
    budget.record(failed("other"), "10.0.0.2");
    assertThat(count("failed")).isEqualTo(FailedLoginBudget.PER_MINUTE + 1);
    assertThat(count("suppressed")).isEqualTo(1);
    assertThat(text(last("suppressed"))).contains("clientip=10.0.0.1").doesNotContain("count=");

    now.addAndGet(61_000_000_000L);
    budget.flush();
    AuditEvent summary = last("suppressed");
    assertThat(text(summary))
        .contains("clientip=10.0.0.1")
        .contains("count=" + (500 - FailedLoginBudget.PER_MINUTE)); // every one left out
    // a new minute, a new budget
    budget.record(failed("again"), "10.0.0.1");
    assertThat(text(recorded.getLast())).contains("user=again");
  }

  @Test
  void theWriterIsToldWhenACountIsDueAndNeverWhileNoneIs() {
    // no attempt left out: nothing to wake the audit writer for
    assertThat(budget.nanosUntilFlush()).isEqualTo(Long.MAX_VALUE);
    for (int i = 0; i < FailedLoginBudget.PER_MINUTE; i++) {
      budget.record(failed("u" + i), "10.0.0.1");
    }
    assertThat(budget.nanosUntilFlush()).isEqualTo(Long.MAX_VALUE);
    now.addAndGet(5_000_000_000L);
    budget.record(failed("past"), "10.0.0.1"); // left out: counted until the minute ends
    assertThat(budget.nanosUntilFlush()).isEqualTo(55_000_000_000L);
    now.addAndGet(55_000_000_000L);
    assertThat(budget.nanosUntilFlush()).isZero();
    budget.flush();
    assertThat(text(recorded.getLast())).contains("count=1");
    assertThat(budget.nanosUntilFlush()).isEqualTo(Long.MAX_VALUE);
  }

  private static AuditEvent failed(String user) {
    return AuditEvent.of(Instant.EPOCH, user, "login attempt", "failed")
        .with("reason", "no such user");
  }

  private long count(String info) {
    return recorded.stream().filter(e -> text(e).contains("info=" + info + ",")).count();
  }

  private AuditEvent last(String info) {
    return recorded.stream()
        .filter(e -> text(e).contains("info=" + info + ","))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  private static String text(AuditEvent event) {
    return event.toEvent("h").raw();
  }
}
