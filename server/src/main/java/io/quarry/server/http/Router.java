package io.quarry.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Maps a method and a path to a route; knows its routes' names for metrics. A path is exact, or a
 * template whose {@code {name}} segments match any one segment ({@code /api/v1/jobs/{id}}); exact
 * paths win, then templates in the order they were added. The route reads the segments with {@link
 * Exchange#pathParameter}.
 */
public final class Router {
  private final Map<String, Map<HttpMethod, Route>> routes = new LinkedHashMap<>();
  private final List<String> templates = new ArrayList<>();
  private final Map<String, Supplier<ApiException>> busyErrors = new LinkedHashMap<>();

  public Router add(HttpMethod method, String path, Route route) {
    if (path.contains("{") && !routes.containsKey(path)) {
      templates.add(path);
    }
    Route previous = routes.computeIfAbsent(path, p -> new LinkedHashMap<>()).put(method, route);
    if (previous != null) {
      throw new IllegalStateException("duplicate route " + method + " " + path);
    }
    return this;
  }

  /** Every route: path (or template) to its methods, in the order they were added. */
  public Map<String, java.util.Set<String>> routes() {
    Map<String, java.util.Set<String>> all = new LinkedHashMap<>();
    routes.forEach(
        (path, byMethod) -> {
          java.util.Set<String> methods = new TreeSet<>();
          byMethod.keySet().forEach(m -> methods.add(m.name()));
          all.put(path, methods);
        });
    return all;
  }

  private final Map<String, Supplier<ApiException>> credentialsErrors = new LinkedHashMap<>();

  /**
   * The error to answer with under paths starting with {@code prefix} when a request with a body
   * comes without credentials (it is refused before the body is read: {@code BodyBudgetHandler}).
   */
  public Router credentialsError(String prefix, Supplier<ApiException> error) {
    credentialsErrors.put(prefix, error);
    return this;
  }

  ApiException missingCredentials(String path) {
    for (Map.Entry<String, Supplier<ApiException>> entry : credentialsErrors.entrySet()) {
      if (path.startsWith(entry.getKey())) {
        return entry.getValue().get();
      }
    }
    return ApiException.unauthorized(
        "Authentication required: send credentials (an Authorization header) with the request");
  }

  /**
   * Whether a request to {@code path} may carry a body without an Authorization header: only a
   * login, whose body holds the credentials ({@code …/auth/login}).
   */
  static boolean takesBodyWithoutCredentials(String path) {
    return path.endsWith("/auth/login");
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

  /**
   * The route for a request, or an {@link ApiException} 404/405. Exact paths are looked up by the
   * decoded {@code path}; templates match the segments of {@code rawPath}, each decoded once (so an
   * escaped {@code /} or {@code %} in a job id or lookup name stays in its segment).
   */
  Route route(HttpMethod method, String path, String rawPath) {
    String normalized = normalize(path);
    Map<HttpMethod, Route> byMethod = routes.get(normalized);
    Map<String, String> parameters = Map.of();
    if (byMethod == null) {
      for (String template : templates) {
        Map<String, String> matched = match(template, normalize(rawPath));
        if (matched != null) {
          byMethod = routes.get(template);
          parameters = matched;
          break;
        }
      }
    }
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
    if (parameters.isEmpty()) {
      return route;
    }
    Map<String, String> bound = parameters;
    return exchange -> {
      exchange.pathParameters(bound);
      route.handle(exchange);
    };
  }

  /** The segments a template's {@code {name}}s match in a path, or null when it does not match. */
  private static Map<String, String> match(String template, String path) {
    String[] expected = template.split("/", -1);
    String[] actual = path.split("/", -1);
    if (expected.length != actual.length) {
      return null;
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    for (int i = 0; i < expected.length; i++) {
      String segment = expected[i];
      if (segment.startsWith("{") && segment.endsWith("}")) {
        if (actual[i].isEmpty()) {
          return null;
        }
        parameters.put(segment.substring(1, segment.length() - 1), decodeSegment(actual[i]));
      } else if (!segment.equals(decodeSegment(actual[i]))) {
        return null;
      }
    }
    return parameters;
  }

  private static String decodeSegment(String raw) {
    try {
      return PercentDecoding.decodePath(raw);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("BAD_REQUEST", "Malformed request URI: " + e.getMessage());
    }
  }

  /** The metric label of a path: the route's path when it exists, else "unmatched". */
  String label(String path, String rawPath) {
    String normalized = normalize(path);
    if (routes.containsKey(normalized)) {
      return normalized;
    }
    for (String template : templates) {
      if (matchesQuietly(template, normalize(rawPath))) {
        return template; // one label per route, not one per job id
      }
    }
    return "unmatched";
  }

  private static boolean matchesQuietly(String template, String rawPath) {
    try {
      return match(template, rawPath) != null;
    } catch (ApiException malformed) {
      return false;
    }
  }

  private static String normalize(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
