package io.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a streamed search cost, as the server sends it once the search ran to its end ({@code
 * "costs"} of {@code POST /api/v1/search}, named as the job inspector's).
 *
 * @param eventsRead events read from storage
 * @param eventsMatched events that matched the search
 * @param rows result rows
 * @param elapsedMs the search's wall time, its planning (its subsearches run then) included
 * @param cpuMs the CPU its own threads spent, its planning included, fractional milliseconds
 */
public record SearchCosts(
    long eventsRead, long eventsMatched, long rows, long elapsedMs, double cpuMs) {

  /** The costs of the server's {@code "costs"} object. */
  static SearchCosts fromJson(JsonNode costs) {
    return new SearchCosts(
        costs.path("eventsRead").asLong(),
        costs.path("eventsMatched").asLong(),
        costs.path("rows").asLong(),
        costs.path("elapsedMs").asLong(),
        costs.path("cpuMs").asDouble());
  }
}
