package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.server.metrics.ServerMetrics;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * How each search ends, on {@code /metrics}: its outcome ({@code completed}, {@code failed}, {@code
 * cancelled}) with its wall time ({@code quarry_searches_seconds}) and the CPU its threads spent
 * ({@code quarry_search_cpu_seconds}), a failed one's stage and error code ({@code
 * quarry_search_failures_total}: {@link FailureCode}), one stopped at its time limit ({@code
 * quarry_search_time_limited_total}). A search refused while it is planned is counted by {@link
 * #refusedWhilePlanned}; one that runs by its {@link Running}, from {@link #start} to {@link
 * Running#record}. {@link SearchService} decides what runs; this class only counts how it ended.
 */
final class SearchOutcomes {
  private final ServerMetrics metrics;

  SearchOutcomes(ServerMetrics metrics) {
    this.metrics = requireNonNull(metrics, "metrics is null");
  }

  /**
   * Runs a search's planning ({@code planned}), counting a search refused by it as a failed search:
   * its outcome, its wall time, the CPU its thread spent and its error code, at stage {@code
   * planning}.
   */
  <T> T refusedWhilePlanned(Supplier<T> planned) {
    long cpuBefore = SearchCpu.threadNanos();
    long started = System.nanoTime();
    try {
      return planned.get();
    } catch (RuntimeException | Error refused) {
      FailureCode failure = FailureCode.of(refused);
      metrics.searchRun("failed", Duration.ofNanos(System.nanoTime() - started));
      metrics.searchCpu("failed", Duration.ofNanos(SearchCpu.threadNanos() - cpuBefore));
      metrics.searchFailed("planning", failure.status(), failure.code());
      throw refused;
    }
  }

  /** {@link #refusedWhilePlanned(Supplier)} for planning that answers nothing. */
  void refusedWhilePlanned(Runnable planned) {
    refusedWhilePlanned(
        () -> {
          planned.run();
          return null;
        });
  }

  /**
   * A search starting to run, steered by {@code control}, its CPU measured on {@code searchPool}
   * and its own thread from now.
   */
  Running start(SearchControl control, ExecutorService searchPool) {
    return new Running(control, SearchCpu.start(searchPool));
  }

  /**
   * One running search's outcome: {@code failed} unless it {@link #completed}, {@code cancelled}
   * whenever its control was; recorded once, as it ends ({@link #record}).
   */
  final class Running {
    private final SearchControl control;
    private final SearchCpu cpu;
    private final long started = System.nanoTime();
    private String outcome = "failed";
    private Duration spent; // its CPU, once it completed
    private Throwable failure;

    private Running(SearchControl control, SearchCpu cpu) {
      this.control = control;
      this.cpu = cpu;
    }

    /** The search's CPU account, for what it runs on the search pool. */
    SearchCpu cpu() {
      return cpu;
    }

    /**
     * The search failed as it ran: cancelled if its control was (its client went away, writing the
     * answer failed), and its batch-mode slices still running stop at their next check.
     */
    void failing() {
      if (control.cancelled()) {
        outcome = "cancelled";
      }
      control.failed();
    }

    /** {@code stats} with the CPU the search spent and its planning's time: it answered. */
    SearchStats measured(SearchStats stats) {
      spent = cpu.stop().plus(control.planningCpu());
      return stats.withCpu(spent).plusElapsed(control.planningElapsed());
    }

    /** The search completed (or was cancelled as it answered); its time limit counted if hit. */
    void completed() {
      outcome = control.cancelled() ? "cancelled" : "completed";
      if (control.stoppedByTimeLimit()) {
        metrics.searchTimeLimited();
      }
    }

    /** The search ends with {@code error}: its code is counted if it failed. */
    void failedWith(Throwable error) {
      failure = error;
    }

    /**
     * Counts the search's outcome, wall time (its planning's too) and CPU, and a failed one's code
     * at stage {@code running}. A search that did not complete stops its slices still running
     * before its CPU is measured.
     */
    void record() {
      if (spent == null) {
        outcome = control.cancelled() ? "cancelled" : outcome;
        control.failed(); // (again) so that the slices still running stop before it is measured
        spent = cpu.stop().plus(control.planningCpu());
      }
      metrics.searchRun(
          outcome, Duration.ofNanos(System.nanoTime() - started).plus(control.planningElapsed()));
      metrics.searchCpu(outcome, spent);
      if (outcome.equals("failed")) {
        FailureCode code = failure == null ? FailureCode.INTERNAL : FailureCode.of(failure);
        metrics.searchFailed("running", code.status(), code.code());
      }
    }
  }
}
