package io.quarry.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.time.Duration;

/** The registry and the named meters the server records into. */
public final class ServerMetrics implements Closeable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

  public ServerMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new JvmCompilationMetrics().bindTo(registry); // the benchmarks' --warmup-until-stable reads it
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    gcMetrics.bindTo(registry);
  }

  /** {@code quarry_http_requests_total{route,method,status}} */
  public void httpRequest(String route, String method, int status) {
    Counter.builder("quarry.http.requests")
        .description("HTTP requests served")
        .tag("route", route)
        .tag("method", method)
        .tag("status", Integer.toString(status))
        .register(registry)
        .increment();
  }

  /** {@code quarry_events_ingested_total{index}} and {@code quarry_ingested_bytes_total{index}} */
  public void eventsIngested(String index, long events, long rawBytes) {
    Counter.builder("quarry.events.ingested")
        .description("Events stored durably")
        .tag("index", index)
        .register(registry)
        .increment(events);
    Counter.builder("quarry.ingested.bytes")
        .description("Raw bytes of the events stored")
        .baseUnit("bytes")
        .tag("index", index)
        .register(registry)
        .increment(rawBytes);
  }

  /**
   * {@code quarry_ingest_events_truncated_total{sourcetype}} and {@code
   * quarry_ingest_events_timestamp_missing_total{sourcetype}}: events cut at the sourcetype's
   * {@code truncate} and events stored with their receive time because no timestamp was found.
   */
  public void eventsBroken(String sourcetype, int truncated, int timestampMissing) {
    if (truncated > 0) {
      Counter.builder("quarry.ingest.events.truncated")
          .description("Events cut at their sourcetype's truncate limit")
          .tag("sourcetype", sourcetype)
          .register(registry)
          .increment(truncated);
    }
    if (timestampMissing > 0) {
      Counter.builder("quarry.ingest.events.timestamp.missing")
          .description("Events stored with their receive time because no timestamp was found")
          .tag("sourcetype", sourcetype)
          .register(registry)
          .increment(timestampMissing);
    }
  }

  /**
   * {@code quarry_searches_seconds{outcome}}: count and time of searches, by outcome; a search
   * refused while it was planned (a query that does not parse) is {@code failed}, its time its
   * planning's.
   */
  public void searchRun(String outcome, Duration elapsed) {
    Timer.builder("quarry.searches")
        .description("Searches run")
        .tag("outcome", outcome)
        .register(registry)
        .record(elapsed);
  }

  /**
   * {@code quarry_search_cpu_seconds{outcome}}: the CPU each search's own threads spent (its
   * planning, its driver thread and its tasks on the search pool, measured per slice: {@code
   * search.SearchCpu}), apart from the process's JIT and garbage collection, by outcome as {@code
   * quarry_searches_seconds}: {@code completed}, {@code failed}, {@code cancelled}; {@code _sum}
   * over {@code _count} is the CPU per search.
   */
  public void searchCpu(String outcome, Duration cpu) {
    Timer.builder("quarry.search.cpu")
        .description("CPU spent by searches' own threads")
        .tag("outcome", outcome)
        .register(registry)
        .record(cpu);
  }

  /**
   * {@code quarry_search_failures_total{stage,status,code}}: searches that failed, each counted
   * once by where ({@code planning}: parsing, expanding, checking, its subsearches; {@code
   * running}) and by the HTTP status and stable error code it was answered with ({@code
   * QUERY_PARSE}, {@code MEMORY_LIMIT}, {@code SEARCH_MEMORY_BREAKER}, {@code SUBSEARCH_FAILED},
   * {@code INTERNAL}, …). Summed over its series it is {@code
   * quarry_searches_seconds_count{outcome="failed"}}.
   */
  public void searchFailed(String stage, int status, String code) {
    Counter.builder("quarry.search.failures")
        .description("Searches that failed, by stage and error code")
        .tag("stage", stage)
        .tag("status", Integer.toString(status))
        .tag("code", code)
        .register(registry)
        .increment();
  }

  /**
   * {@code quarry_search_time_limited_total}: searches that reached their time limit and answered
   * with the events read until then (counted {@code completed} in {@code quarry_searches_seconds}).
   */
  public void searchTimeLimited() {
    Counter.builder("quarry.search.time.limited")
        .description("Searches stopped at their time limit, answering with what they had read")
        .register(registry)
        .increment();
  }

  /** {@code quarry_search_events_scanned_total} */
  public void eventsScanned(long events) {
    Counter.builder("quarry.search.events.scanned")
        .description("Events read from storage by searches")
        .register(registry)
        .increment(events);
  }

  /** {@code quarry_search_jobs{state}}: search jobs kept, by state. */
  public void searchJobs(java.util.function.Function<String, Long> countByState) {
    for (String state : java.util.List.of("QUEUED", "RUNNING", "DONE", "FAILED", "CANCELLED")) {
      io.micrometer.core.instrument.Gauge.builder(
              "quarry.search.jobs", () -> countByState.apply(state))
          .description("Search jobs kept, by state")
          .tag("state", state)
          .register(registry);
    }
  }

  /** {@code quarry_ingest_pipelines_busy} and {@code quarry_ingest_queued_bytes}. */
  public void ingestGate(
      java.util.function.IntSupplier busyPipelines, java.util.function.LongSupplier queuedBytes) {
    io.micrometer.core.instrument.Gauge.builder(
            "quarry.ingest.pipelines.busy", busyPipelines::getAsInt)
        .description("Ingest pipelines parsing and indexing a batch now")
        .register(registry);
    io.micrometer.core.instrument.Gauge.builder("quarry.ingest.queued", queuedBytes::getAsLong)
        .description("Bytes of batches waiting for an ingest pipeline")
        .baseUnit("bytes")
        .register(registry);
  }

  /** {@code quarry_buckets_quarantined}: damaged buckets moved aside since start. */
  public void quarantinedBuckets(java.util.function.LongSupplier count) {
    io.micrometer.core.instrument.Gauge.builder("quarry.buckets.quarantined", count::getAsLong)
        .description("Damaged buckets moved to quarantine since start")
        .register(registry);
  }

  /**
   * {@code quarry_compaction_fast_segments_waiting}: hot-bucket fast segments whose natural merges
   * wait while the buckets take events (the compaction merges them once idle, at the bound or the
   * roll; session 40 — it replaced {@code quarry_compaction_merges_deferred}, the last decision's
   * count of merges held back, which fell to 0 between flushes).
   */
  public void fastSegmentsWaiting(java.util.function.LongSupplier count) {
    io.micrometer.core.instrument.Gauge.builder(
            "quarry.compaction.fast.segments.waiting", count::getAsLong)
        .description(
            "Hot-bucket fast segments whose natural merges wait for the compaction while the"
                + " buckets take events")
        .register(registry);
  }

  /** The registry's state in Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gcMetrics.close();
    registry.close();
  }
}
