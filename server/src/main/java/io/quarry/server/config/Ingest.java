package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * Ingest pipelines: how many batches are parsed and indexed at once (default: the cores), and how
 * many bytes of batches may wait for one before HEC answers 503 "server busy".
 */
public record Ingest(
    @JsonProperty("pipelines") Integer pipelines,
    @JsonProperty("maxQueuedBytes") Long maxQueuedBytes) {
  public Ingest {
    pipelines = Objects.requireNonNullElse(pipelines, Runtime.getRuntime().availableProcessors());
    Bounds.atLeastOne(pipelines, "ingest.pipelines");
    maxQueuedBytes = Objects.requireNonNullElse(maxQueuedBytes, 256L << 20);
    Bounds.positive(maxQueuedBytes, "ingest.maxQueuedBytes");
  }
}
