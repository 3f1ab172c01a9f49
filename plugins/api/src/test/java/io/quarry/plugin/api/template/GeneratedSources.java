package io.quarry.plugin.api.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps committed generated sources equal to their template's expansion: a test lists the
 * expansions of a template and fails on any file that differs; run with {@code
 * -Dquarry.regenerate=true} it rewrites those files instead. Generated sources are committed (not
 * generated at build time) so the SPI's sources read as plain Java in the jar, the IDE and a
 * review, and the build needs no plugin beyond the compiler (ARCHITECTURE.md, plugins/api).
 *
 * <p>Every build formats the main sources (spotless, google-java-format) before the tests run, so
 * an expansion must be what the formatter writes (line breaks, javadoc on one line when it fits):
 * one that is not fails its test after each build, which is how it shows.
 */
public final class GeneratedSources {
  /** The system property that makes {@link #stale} rewrite the files instead of listing them. */
  public static final String REGENERATE = "quarry.regenerate";

  private GeneratedSources() {}

  /**
   * Fails (an {@link AssertionError} naming them and the way to rewrite them) when some file of
   * {@code expansions} is {@link #stale}; {@code test} is the test class that lists them.
   */
  public static void check(Class<?> test, Path template, Path directory, List<Expansion> expansions)
      throws IOException {
    List<String> stale = stale(template, directory, expansions);
    if (!stale.isEmpty()) {
      throw new AssertionError(
          stale
              + " in "
              + directory
              + " differ from the expansion of "
              + template
              + ": edit the template, not the files, and rewrite them with -Dtest="
              + test.getSimpleName()
              + " -D"
              + REGENERATE
              + "=true");
    }
  }

  /**
   * The files of {@code expansions} in {@code directory} whose text is not {@code template}'s
   * expansion (a missing file included); rewritten, and so not listed, under {@link #REGENERATE}.
   */
  public static List<String> stale(Path template, Path directory, List<Expansion> expansions)
      throws IOException {
    SourceTemplate source =
        new SourceTemplate(
            template.getFileName().toString(), Files.readString(template, StandardCharsets.UTF_8));
    boolean regenerate = Boolean.getBoolean(REGENERATE);
    List<String> stale = new ArrayList<>();
    for (Expansion expansion : expansions) {
      String expected = header(template) + source.expand(expansion.values(), expansion.flags());
      Path file = directory.resolve(expansion.file());
      String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
      if (expected.equals(actual)) {
        continue;
      }
      if (regenerate) {
        Files.writeString(file, expected, StandardCharsets.UTF_8);
      } else {
        stale.add(expansion.file());
      }
    }
    return stale;
  }

  /** The first lines of a generated file: where it comes from and how to change it. */
  private static String header(Path template) {
    return "// Generated from "
        + template.toString().replace('\\', '/')
        + ": do not edit; edit the template, then\n// run the test that lists it with -D"
        + REGENERATE
        + "=true (GeneratedSources, plugins/api tests).\n";
  }
}
