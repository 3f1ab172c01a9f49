package io.quarry.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/** Maps a method and an exact path to a route; knows its routes' names for metrics. */
public final class Router {
  private final Map<String, Map<HttpMethod, Route>> routes = new LinkedHashMap<>();
  private final Map<String, Supplier<ApiException>> busyErrors = new LinkedHashMap<>();

  public Router add(HttpMethod method, String path, Route route) {
    Route previous = routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).put(method, route);
    if (previous != null) {
      throw new IllegalStateException("duplicate route " + method + " " + path);
    }
    return this;
  }

  /** The error to answer with under paths starting with {@code prefix} when the server is busy. */
  public Router busyError(String prefix, Supplier<ApiException> error) {
    busyErrors.put(prefix, error);
    return this;
  }

  ApiException busy(String path) {
    for (Map.Entry<String, Supplier<ApiException>> entry : busyErrors.entrySet()) {
      if (path.startsWith(entry.getKey())) {
        return entry.getValue().get();
      }
    }
    return new ApiException(
        HttpResponseStatus.SERVICE_UNAVAILABLE,
        "SERVER_BUSY",
        "The server is busy; retry after the delay in Retry-After");
  }

  /** The route for a request, or an {@link ApiException} 404/405. */
  Route route(HttpMethod method, String path) {
    String normalized = normalize(path);
    Map<HttpMethod, Route> byMethod = routes.get(normalized);
    if (byMethod == null) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND, "NOT_FOUND", "No such endpoint: " + path);
    }
    Route route = byMethod.get(method);
    if (route == null) {
      Set<String> allowed = new TreeSet<>();
      byMethod.keySet().forEach(m -> allowed.add(m.name()));
      throw new ApiException(
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          "METHOD_NOT_ALLOWED",
          method + " is not allowed on " + normalized + "; use " + String.join(" or ", allowed));
    }
    return route;
  }

  /** The metric label of a path: the route's path when it exists, else "unmatched". */
  String label(String path) {
    String normalized = normalize(path);
    return routes.containsKey(normalized) ? normalized : "unmatched";
  }

  private static String normalize(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
