package io.quarry.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The assembled distribution carries Quarry's licence and the attributions of everything it
 * bundles: LICENSE and NOTICE at the top, NOTICE naming every third-party jar of {@code lib/} and
 * {@code plugins/}, and every {@code licenses/} file NOTICE points at present.
 */
class DistributionLicenceIT {
  /** A jar's artifact name: its file name up to the version ({@code netty-buffer-4.2.20.Final}). */
  private static final Pattern ARTIFACT = Pattern.compile("(.+?)-\\d[^/]*\\.jar");

  private final Path home = Path.of(System.getProperty("quarry.home"));

  @Test
  void licenceAndNoticeAreAtTheTop() throws IOException {
    assertThat(Files.readString(home.resolve("LICENSE")))
        .contains("Apache License")
        .contains("Version 2.0, January 2004");
    assertThat(Files.readString(home.resolve("NOTICE"))).startsWith("Quarry\n");
  }

  @Test
  void noticeNamesEveryBundledJar() throws IOException {
    String notice = Files.readString(home.resolve("NOTICE"));
    List<String> artifacts;
    try (Stream<Path> files = Files.walk(home)) {
      artifacts =
          files
              .map(path -> home.relativize(path).toString())
              .filter(path -> path.startsWith("lib/") || path.startsWith("plugins/"))
              .filter(path -> path.endsWith(".jar"))
              .map(path -> path.substring(path.lastIndexOf('/') + 1))
              .filter(jar -> !jar.startsWith("quarry-"))
              .map(DistributionLicenceIT::artifactName)
              .toList();
    }
    assertThat(artifacts).as("third-party jars found").hasSizeGreaterThan(10);
    for (String artifact : artifacts) {
      assertThat(notice)
          .as("NOTICE attributes %s, which the distribution bundles", artifact)
          .containsPattern("(?<![\\w-])" + Pattern.quote(artifact) + "(?![\\w-])");
    }
  }

  @Test
  void everyLicenceFileNoticePointsAtIsThere() throws IOException {
    Matcher referenced =
        Pattern.compile("licenses/[\\w.-]+\\.txt")
            .matcher(Files.readString(home.resolve("NOTICE")));
    int count = 0;
    while (referenced.find()) {
      count++;
      assertThat(home.resolve(referenced.group())).as(referenced.group()).isRegularFile();
    }
    assertThat(count).isGreaterThan(5);
  }

  private static String artifactName(String jar) {
    Matcher matcher = ARTIFACT.matcher(jar);
    assertThat(matcher.matches()).as("a versioned jar name: %s", jar).isTrue();
    return matcher.group(1);
  }
}
