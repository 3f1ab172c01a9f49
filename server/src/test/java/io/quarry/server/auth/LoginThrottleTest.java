package io.quarry.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.config.User;
import io.quarry.server.http.ApiException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LoginThrottleTest {
  // nanoTime's origin is arbitrary and may be negative
  private final AtomicLong now = new AtomicLong(-5_000_000_000_000L);
  private final LoginThrottle throttle = new LoginThrottle(now::get);

  private void advance(Duration duration) {
    now.addAndGet(duration.toNanos());
  }

  @Test
  void fiveFailuresInAMinuteLockTheNameThenTheLockDoubles() {
    for (int i = 0; i < LoginThrottle.FAILURES; i++) {
      throttle.check("bob");
      throttle.failed("bob");
    }
    assertThatThrownBy(() -> throttle.check("bob"))
        .isInstanceOf(ApiException.class)
        .satisfies(
            e -> {
              ApiException api = (ApiException) e;
              assertThat(api.status().code()).isEqualTo(429);
              assertThat(api.headers()).containsEntry("Retry-After", "31");
            });
    throttle.check("alice"); // other names are not affected
    advance(Duration.ofSeconds(31));
    throttle.check("bob");
    for (int i = 0; i < LoginThrottle.FAILURES; i++) {
      throttle.failed("bob");
    }
    advance(Duration.ofSeconds(45));
    assertThatThrownBy(() -> throttle.check("bob"))
        .as("the second lock in a row is 60 s")
        .isInstanceOf(ApiException.class);
    advance(Duration.ofSeconds(16));
    throttle.check("bob");
    throttle.succeeded("bob");
    for (int i = 0; i < LoginThrottle.FAILURES - 1; i++) {
      throttle.failed("bob");
    }
    throttle.check("bob"); // a success cleared the record: four failures lock nothing
  }

  @Test
  void failuresSpreadOverMoreThanTheWindowDoNotLock() {
    for (int i = 0; i < 20; i++) {
      throttle.failed("bob");
      advance(Duration.ofSeconds(20));
      throttle.check("bob");
    }
  }

  @Test
  void aUserKeepsAtMostAHundredSessionsAndOthersKeepTheirs() {
    Authenticator authenticator =
        new Authenticator("admin-pw", List.of(new User("bob", "bob-pw", null)), List.of());
    String adminKey = authenticator.login("admin", "admin-pw").orElseThrow();
    Set<String> keys = new HashSet<>();
    String first = null;
    for (int i = 0; i < 150; i++) {
      String key = authenticator.login("bob", "bob-pw").orElseThrow();
      first = first == null ? key : first;
      keys.add(key);
    }
    assertThat(keys).hasSize(150);
    assertThat(authenticator.sessionCount("bob")).isEqualTo(Authenticator.MAX_SESSIONS_PER_USER);
    assertThat(authenticator.user("Splunk " + first)).as("the oldest went").isEmpty();
    assertThat(authenticator.user("Splunk " + adminKey)).contains("admin");
  }

  @Test
  void aServerAnswersGuessingWith429AndSessionsGoOnWorking(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path data) throws Exception {
    io.quarry.server.QuarryServer server = io.quarry.server.TestServers.start(data, "right-pw");
    try {
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      String session =
          http.send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(server.url() + "/services/auth/login"))
                      .header("Content-Type", "application/x-www-form-urlencoded")
                      .POST(
                          java.net.http.HttpRequest.BodyPublishers.ofString(
                              "username=admin&password=right-pw&output_mode=json"))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString())
              .body()
              .replaceAll(".*\"sessionKey\"\\s*:\\s*\"([^\"]+)\".*", "$1");
      for (int i = 0; i < LoginThrottle.FAILURES; i++) {
        assertThat(indexes(http, server, io.quarry.server.TestServers.basic("wrong")).statusCode())
            .isEqualTo(401);
      }
      java.net.http.HttpResponse<String> locked =
          indexes(http, server, io.quarry.server.TestServers.basic("right-pw"));
      assertThat(locked.statusCode()).as(locked.body()).isEqualTo(429);
      assertThat(locked.headers().firstValue("Retry-After")).isPresent();
      assertThat(locked.body()).contains("TOO_MANY_FAILED_LOGINS");
      assertThat(indexes(http, server, "Splunk " + session).statusCode())
          .as("a session from before the guessing goes on working")
          .isEqualTo(200);
    } finally {
      server.close();
    }
  }

  private static java.net.http.HttpResponse<String> indexes(
      java.net.http.HttpClient http, io.quarry.server.QuarryServer server, String authorization)
      throws Exception {
    return http.send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.url() + "/api/v1/indexes"))
            .header("Authorization", authorization)
            .build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
  }
}
