package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each section's checks (the {@code …Settings} classes beside {@link QuarryConfig}) refuse a bad
 * setting, loaded the way the server loads it, with the exact message that names the setting. The
 * expected texts are written out by hand: they are what an operator reads.
 */
class ConfigChecksTest {
  static Stream<Arguments> refusals() {
    return Stream.of(
        refused("server.port must be 0..65535, not 70000", "server.port", "70000"),
        refused(
            "server.maxRequestBytes must be 1024..536870912, not 10",
            "server.maxRequestBytes",
            "10"),
        refused("server.maxInFlightBytes must be positive", "server.maxInFlightBytes", "0"),
        refused("server.workerThreads must be at least 1", "server.workerThreads", "0"),
        refused("server.ingestWorkerThreads must be at least 1", "server.ingestWorkerThreads", "0"),
        refused("server.writeTimeoutSeconds must be at least 1", "server.writeTimeoutSeconds", "0"),
        refused("server.idleTimeoutSeconds must be at least 1", "server.idleTimeoutSeconds", "-3"),
        refused(
            "server.requestReadTimeoutSeconds must be at least 1",
            "server.requestReadTimeoutSeconds",
            "0"),
        refused("server.maxConnections must be at least 1", "server.maxConnections", "0"),
        refused(
            "server.tls.clientAuth: none, optional (or want) or required, not 'sometimes'",
            "server.tls.enabled",
            "true",
            "server.tls.clientAuth",
            "sometimes"),
        refused(
            "server.tls: certificate and key go together; certificate is set without key",
            "server.tls.certificate",
            "cert.pem"),
        refused(
            "server.tls.clientAuth is required: server.tls.clientCa must name the PEM file of the"
                + " CAs that sign client certificates",
            "server.tls.enabled",
            "true",
            "server.tls.clientAuth",
            "required"),
        refused("ingest.pipelines must be at least 1", "ingest.pipelines", "0"),
        refused("ingest.maxQueuedBytes must be positive", "ingest.maxQueuedBytes", "0"),
        refused("search.maxMemoryBytes must be at least 1", "search.maxMemoryBytes", "0"),
        refused("search.maxTotalMemoryBytes must be at least 1", "search.maxTotalMemoryBytes", "0"),
        refused("search.maxResultRows must be at least 1", "search.maxResultRows", "0"),
        refused("search.maxTimeSeconds must be at least 1", "search.maxTimeSeconds", "0"),
        refused(
            "search.maxConcurrentJobs, search.maxJobs, search.jobTtlSeconds and"
                + " search.maxJobTtlSeconds must be at least 1",
            "search.maxJobs",
            "0"),
        refused(
            "search.jobTtlSeconds (100) is above search.maxJobTtlSeconds (50)",
            "search.jobTtlSeconds",
            "100",
            "search.maxJobTtlSeconds",
            "50"),
        refused(
            "storage.commitIntervalSeconds must be at least 1",
            "storage.commitIntervalSeconds",
            "0"),
        refused("storage.maxBucketEvents must be at least 1", "storage.maxBucketEvents", "0"),
        refused("storage.maxWaitingBuckets must be at least 1", "storage.maxWaitingBuckets", "0"),
        refused(
            "storage.maxBatchBytes must be from 4096 to 1073741824 (the write-ahead log's record"
                + " limit), not 4095",
            "storage.maxBatchBytes",
            "4095"),
        refused(
            "storage.maxBatchBytes must be from 4096 to 1073741824 (the write-ahead log's record"
                + " limit), not 1073741825",
            "storage.maxBatchBytes",
            "1073741825"),
        refused(
            "storage.maxBatchBytes must be from 4096 to 1073741824 (the write-ahead log's record"
                + " limit), not -1",
            "storage.maxBatchBytes",
            "-1"),
        // as every number setting: Jackson's words after the setting's path
        refused(
            "storage.maxBatchBytes: Cannot deserialize value of type `java.lang.Long` from String"
                + " \"lots\": not a valid `java.lang.Long` value",
            "storage.maxBatchBytes",
            "lots"),
        refused(
            "storage.committerThreads must be from 1 to 1024, not 0",
            "storage.committerThreads",
            "0"),
        refused(
            "storage.committerThreads must be from 1 to 1024, not 1025",
            "storage.committerThreads",
            "1025"),
        refused(
            "storage.maxHotBucketAgeHours must be at least 1", "storage.maxHotBucketAgeHours", "0"),
        refused(
            "storage.compaction.mode must be deferred or inline, not 'later'",
            "storage.compaction.mode",
            "later"),
        refused(
            "storage.compaction.idleMillis must be from 0 to 31536000000 (a year), not -5",
            "storage.compaction.idleMillis",
            "-5"),
        refused(
            "storage.compaction.idleMillis must be from 0 to 31536000000 (a year), not"
                + " 9223372036854775807",
            "storage.compaction.idleMillis",
            "9223372036854775807"),
        refused(
            "storage.indexes.web.compaction.idleMillis must be from 0 to 31536000000 (a year),"
                + " not 31536000001",
            "indexes",
            "web",
            "storage.indexes.web.compaction.idleMillis",
            "31536000001"),
        refused(
            "storage.compaction.idleMinBytes must be at least 1, not 0",
            "storage.compaction.idleMinBytes",
            "0"),
        refused(
            "storage.compaction.pendingBytes must be at least 1, not -1",
            "storage.compaction.pendingBytes",
            "-1"),
        refused(
            "storage.indexes.web.compaction.mode must be deferred or inline, not 'INLINE'",
            "indexes",
            "web",
            "storage.indexes.web.compaction.mode",
            "INLINE"),
        refused(
            "storage.indexes.web.compaction.pendingBytes must be at least 1, not 0",
            "indexes",
            "web",
            "storage.indexes.web.compaction.pendingBytes",
            "0"),
        refused(
            "storage.indexes.m.compaction is a setting of event indexes",
            "indexes",
            "m",
            "storage.indexes.m.datatype",
            "metric",
            "storage.indexes.m.compaction.mode",
            "inline"),
        refused(
            "maxAgeDays must be at least 1",
            "indexes",
            "web",
            "storage.indexes.web.maxAgeDays",
            "0"),
        refused(
            "maxTotalBytes must be positive",
            "indexes",
            "web",
            "storage.indexes.web.maxTotalBytes",
            "0"),
        refused(
            "datatype must be event or metric, not 'trace'",
            "indexes",
            "web",
            "storage.indexes.web.datatype",
            "trace"),
        refused(
            "maxBucketPoints, mergeFactor and maxMergedPoints are settings of metric indexes",
            "indexes",
            "web",
            "storage.indexes.web.mergeFactor",
            "4"),
        refused(
            "storage.indexes has settings for 'web', which is not in indexes",
            "storage.indexes.web.maxAgeDays",
            "3"),
        refused(
            "indexes: '_audit' is Quarry's own index and always exists; HEC tokens cannot write it",
            "indexes",
            "_audit"),
        refused(
            "auth.roles.admin: the admin role is built in (every index and capability) and cannot"
                + " be redefined",
            "auth.roles.admin.srchJobsQuota",
            "5"),
        refused(
            "auth.roles.ops.srchMaxTime: a number of seconds or a number with a unit (30s, 10m,"
                + " 8h, 100days), not 'soon'",
            "auth.roles.ops.srchMaxTime",
            "soon"),
        refused(
            "auth.roles.ops.srchJobsQuota: at least 0 (0: no limit), not -1",
            "auth.roles.ops.srchJobsQuota",
            "-1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusals")
  void aBadSettingIsRefusedNamingIt(String message, Map<String, String> flags) {
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), flags))
        .isInstanceOf(ConfigException.class)
        .hasMessage("configuration: " + message);
  }

  @org.junit.jupiter.api.Test
  void anUnknownCapabilityIsRefusedNamingTheKnownOnes() {
    // the check the server's start runs on each role of auth.roles (a list cannot be a flag)
    Role misspelled = new Role(null, null, java.util.List.of("run_colect"), null, null, null);
    assertThatThrownBy(() -> misspelled.check("ops"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "auth.roles.ops.capabilities: unknown capability 'run_colect' (known:"
                + " admin_all_objects, edit_lookups, edit_roles, edit_tcp, edit_user, run_collect)");
    new Role(null, null, java.util.List.of(Role.RUN_COLLECT), null, null, null).check("ops");
  }

  private static Arguments refused(String message, String... flagsAndValues) {
    Map<String, String> flags = new LinkedHashMap<>();
    for (int i = 0; i < flagsAndValues.length; i += 2) {
      flags.put(flagsAndValues[i], flagsAndValues[i + 1]);
    }
    return Arguments.of(message, flags);
  }
}
