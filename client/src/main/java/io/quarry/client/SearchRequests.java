package io.quarry.client;

import static java.util.Objects.requireNonNull;

import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The requests of a search: the form of Splunk's export endpoint ({@code
 * /services/search/jobs/export}) and the JSON body of the native search and job endpoints.
 */
final class SearchRequests {
  private SearchRequests() {}

  /** The JSON body of the native search and job endpoints. */
  static Map<String, Object> body(String query, String earliest, String latest) {
    requireNonNull(query, "query is null");
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("query", query);
    if (earliest != null) {
      body.put("earliest", earliest);
    }
    if (latest != null) {
      body.put("latest", latest);
    }
    return body;
  }

  /** A POST to the export endpoint for a query, its time range and {@code extra} parameters. */
  static HttpRequest export(
      ClientHttp http, String query, String earliest, String latest, Map<String, String> extra) {
    requireNonNull(query, "query is null");
    Map<String, String> form = new LinkedHashMap<>();
    form.put("search", query);
    form.putAll(extra);
    if (earliest != null) {
      form.put("earliest_time", earliest);
    }
    if (latest != null) {
      form.put("latest_time", latest);
    }
    return http.request("/services/search/jobs/export")
        .header("Authorization", http.authorization())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(ClientHttp.formEncode(form)))
        .build();
  }
}
