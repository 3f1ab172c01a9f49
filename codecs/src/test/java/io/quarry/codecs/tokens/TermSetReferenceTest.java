package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A block's term set against a tokenizer written here from the rules {@link Segmenter} documents,
 * sharing none of its code: a text lower-cased (root locale) is cut at the major breakers (white
 * space and {@code [ ] < > ( ) { } | ! ; , ' " * & ? + =}) into tokens; a token's parts are its
 * runs between minor breakers ({@code / : @ . - $ # % \ _}); the terms are the parts and, when a
 * token has a minor breaker, the token itself, each at most 256 characters, UTF-8 encoded. Over
 * random lines of bytes (ASCII, UTF-8, long tokens, runs of breakers) and every loghub sample.
 */
class TermSetReferenceTest {
  private static final String MAJOR = "[]<>(){}|!;,'\"*&?+=";
  private static final String MINOR = "/:@.-$#%\\_";

  /** The terms of the texts by the documented rules, each once. */
  static Set<String> reference(List<String> texts) {
    Set<String> terms = new HashSet<>();
    for (String text : texts) {
      String lower = text.toLowerCase(Locale.ROOT);
      StringBuilder token = new StringBuilder();
      for (int i = 0; i <= lower.length(); i++) {
        char c = i < lower.length() ? lower.charAt(i) : ' ';
        if (Character.isWhitespace(c) || MAJOR.indexOf(c) >= 0) {
          tokenTerms(token.toString(), terms);
          token.setLength(0);
        } else {
          token.append(c);
        }
      }
    }
    return terms;
  }

  private static void tokenTerms(String token, Set<String> terms) {
    boolean broken = false;
    StringBuilder part = new StringBuilder();
    for (int i = 0; i <= token.length(); i++) {
      char c = i < token.length() ? token.charAt(i) : '/';
      if (MINOR.indexOf(c) >= 0) {
        broken |= i < token.length();
        keep(part.toString(), terms);
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    if (broken) {
      keep(token, terms);
    }
  }

  private static void keep(String term, Set<String> terms) {
    if (!term.isEmpty() && term.length() <= 256) {
      terms.add(term);
    }
  }

  /** The set's terms for a block, the texts given as ASCII bytes where they are, each once. */
  private static void assertMatchesReference(TermSet set, List<String> texts) {
    set.clear();
    TermSetTest.addAsStored(set, texts);
    List<String> terms = set.terms();
    assertThat(terms).as("each term once").doesNotHaveDuplicates();
    Set<String> expected = reference(texts);
    assertThat(new LinkedHashSet<>(terms)).as("the terms of %s", texts).isEqualTo(expected);
  }

  @ParameterizedTest(name = "byTable={0}")
  @ValueSource(booleans = {false, true}) // the classifier's masks, the scalar JVM's table
  void randomLinesOfBytes(boolean byTable) {
    Random random = new Random(41);
    byte[] breakers =
        " \t\n\u000b\f\r[]<>(){}|!;,'\"*&?+=/:@.-$#%\\_".getBytes(StandardCharsets.UTF_8);
    TermSet set = new TermSet(byTable); // reused across blocks, as a writer reuses it
    for (int round = 0; round < 400; round++) {
      List<String> texts = new ArrayList<>();
      int kind = round % 4; // ASCII, UTF-8 (with malformed bytes), long tokens, runs of breakers
      int count = 1 + random.nextInt(120);
      for (int e = 0; e < count; e++) {
        byte[] line = new byte[random.nextInt(random.nextInt(8) == 0 ? 1_200 : 120)];
        for (int i = 0; i < line.length; i++) {
          line[i] =
              switch (kind) {
                case 0 -> (byte) random.nextInt(0x80);
                case 1 ->
                    (byte)
                        (random.nextInt(3) == 0 ? random.nextInt(0x100) : 'A' + random.nextInt(58));
                case 2 ->
                    (byte)
                        (random.nextInt(400) == 0
                            ? breakers[random.nextInt(breakers.length)]
                            : 'X' + random.nextInt(3));
                default ->
                    random.nextInt(3) == 0 ? (byte) 'k' : breakers[random.nextInt(breakers.length)];
              };
        }
        texts.add(new String(line, StandardCharsets.UTF_8));
      }
      // a block's lines repeat, as in a log (the set's shortcuts for what it has seen)
      for (int e = 0, repeats = random.nextInt(count); e < repeats; e++) {
        texts.add(texts.get(random.nextInt(count)));
      }
      assertMatchesReference(set, texts);
    }
  }

  @ParameterizedTest(name = "byTable={0}")
  @ValueSource(booleans = {false, true})
  void everyLoghubSample(boolean byTable) throws IOException {
    List<Path> logs = new ArrayList<>();
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path loghub = dir.resolve("shared/data/loghub");
      if (Files.isDirectory(loghub)) {
        try (Stream<Path> files = Files.list(loghub)) {
          files.filter(f -> f.toString().endsWith(".log")).sorted().forEach(logs::add);
        }
        break;
      }
    }
    List<List<String>> samples = new ArrayList<>();
    for (Path log : logs) {
      samples.add(Files.readString(log, StandardCharsets.UTF_8).lines().toList());
    }
    try (var in = TermSetReferenceTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      samples.add(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
    }
    TermSet set = new TermSet(byTable);
    for (List<String> lines : samples) {
      assertThat(lines).isNotEmpty();
      for (int from = 0; from < lines.size(); from += 1_024) {
        assertMatchesReference(set, lines.subList(from, Math.min(lines.size(), from + 1_024)));
      }
    }
  }
}
